import Foundation
import Synchronization

/// At most so many authentication challenges per registration in a fixed one-minute window,
/// counted in this instance's memory.
///
/// Issuing a challenge writes nothing (``AuthenticationChallenge``), so counting it in the
/// database would be the only write, and a commit, per challenge. In memory, each instance of a
/// fleet counts its own: a registration may get the limit from every instance. The limit bounds
/// how fast one device key can be asked to sign, not storage; the request limits per client
/// address still apply in front of it.
final class ChallengeRateLimit: Sendable {
    private struct Window {
        var start: Int64 = 0
        var hits: [String: Int] = [:]
    }

    let perMinute: Int
    private let window = Mutex(Window())

    /// A limit of `perMinute` challenges per registration.
    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Counts one challenge for `registrationID` at `now`; throws `rate_limited` when it is over the limit.
    func hit(_ registrationID: String, now: Date) throws {
        let now = now.millisecondsSince1970
        let start = now - now % 60_000
        let hits = window.withLock { window in
            // A new minute forgets the last one whole, so the map holds one minute's registrations.
            if window.start != start { window = Window(start: start) }
            window.hits[registrationID, default: 0] += 1
            return window.hits[registrationID, default: 0]
        }
        guard hits <= perMinute else {
            throw Rejection(
                .rateLimited,
                "At most \(perMinute) challenges per registration a minute.",
                retryAfterSeconds: Int((start + 60_000 - now + 999) / 1000)
            )
        }
    }
}
