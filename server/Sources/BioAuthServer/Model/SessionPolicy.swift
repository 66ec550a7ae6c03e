import BioAuthProtocol
import Foundation

/// How long sessions live: the lifetime a sign-in gets, the operator's maximum, the idle timeout,
/// and the short life of a session that must change its password.
struct SessionPolicy: Sendable {
    /// The lifetime when the client asks for none, in minutes.
    var defaultMinutes = ProtocolLimits.defaultSessionDurationMinutes
    /// The longest lifetime any sign-in gets, in minutes: a longer request is cut to it.
    var maximumMinutes = 24 * 60
    /// Minutes without a request after which a session ends; `nil` for no idle timeout.
    var idleMinutes: Int?
    /// The longest a session signed in with a one-time password lives.
    static let restrictedMinutes = 15

    /// The lifetime a sign-in asking for `minutes` (or none) gets: checked against the contract
    /// (`400 invalid_session_duration` outside 5…43200), then cut to ``maximumMinutes``.
    func minutes(requested minutes: Int?) throws -> Int {
        let minutes = minutes ?? defaultMinutes
        guard ProtocolLimits.sessionDurationMinutes.contains(minutes) else {
            throw Rejection(
                .invalidSessionDuration,
                "session_duration_minutes must be between \(ProtocolLimits.sessionDurationMinutes.lowerBound) and \(ProtocolLimits.sessionDurationMinutes.upperBound)."
            )
        }
        return min(minutes, maximumMinutes)
    }

    /// How often a live session's last use is written when there is an idle timeout: a request
    /// refreshes it only when it is older than this, so most requests write nothing.
    var lastSeenGranularity: Duration? {
        idleMinutes.map { .seconds(max(1, $0 * 60 / 10)) }
    }
}
