import BioAuthProtocol
import Foundation

/// Everything the server can be told at start.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String = "127.0.0.1"
    /// Port to listen on (0 picks a free one).
    public var port: Int = 8080
    /// Path of the SQLite database file.
    public var databasePath: String = "./bioauth.sqlite"
    /// The relying-party id every signed message must name.
    public var relyingPartyID: String = "localhost"
    /// How long a challenge can be answered.
    public var challengeTTL: Duration = .seconds(120)
    /// Session lifetime when the client asks for none, in minutes.
    public var defaultSessionMinutes: Int = ProtocolLimits.defaultSessionDurationMinutes
    /// bcrypt cost for passwords and PINs.
    public var passwordHashCost: UInt8 = PasswordHasher.defaultCost
    /// Registrations (pending and active) one user may hold.
    public var maxRegistrationsPerUser: Int = 10
    /// Consecutive failures of one factor that lock it.
    public var lockoutThreshold: Int = 5
    /// How long a locked factor stays locked.
    public var lockoutDuration: Duration = .seconds(15 * 60)
    /// The clock (tests move it).
    var timeSource: TimeSource = .system

    /// The defaults of `bioauth serve`.
    public init() {}
}

extension ServerConfiguration {
    /// Uses a clock other than the system's; for tests that move time.
    public mutating func useClock(_ now: @escaping @Sendable () -> Date) {
        timeSource = TimeSource(now: now)
    }
}
