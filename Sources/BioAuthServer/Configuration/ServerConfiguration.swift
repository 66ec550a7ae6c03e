import BioAuthProtocol
import Foundation

/// Everything the server can be told at start.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String = "127.0.0.1"
    /// Port to listen on (0 picks a free one).
    public var port: Int = 8080
    /// Address the metrics listener (`GET /metrics`, Prometheus) binds; keep it private.
    public var metricsHost: String = "127.0.0.1"
    /// Port of the metrics listener (0 picks a free one).
    public var metricsPort: Int = 9464
    /// Where the data lives: a `postgres://USER:PASSWORD@HOST:PORT/DATABASE` URL (PostgreSQL,
    /// several instances may share it) or anything else, the path of a SQLite file.
    public var databasePath: String = "./bioauth.sqlite"
    /// Largest number of PostgreSQL connections this instance opens (ignored for SQLite).
    public var databaseMaxConnections: Int = 20
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
    /// Pending (started, not yet verified) registrations one user may hold; one more is
    /// 409 `too_many_registrations`.
    public var maxPendingRegistrationsPerUser: Int = 3
    /// Authentication challenges one registration may be issued per clock minute; one more is
    /// 429 `rate_limited`. Counted in the database, so shared by every instance on it.
    public var challengesPerRegistrationPerMinute: Int = 10
    /// Requests one client address may make per clock minute; one more is 429 `rate_limited`.
    /// Counted in memory: the limit is per server instance.
    public var requestsPerMinutePerAddress: Int = 600
    /// Take the client address from the last `X-Forwarded-For` entry (set only behind a proxy that
    /// writes it); otherwise the TCP peer address is the client.
    public var trustForwardedFor: Bool = false
    /// A connection that sends nothing for this long while a request is being read (or between
    /// requests) is closed: slow and stalled clients cannot hold connections.
    public var requestTimeout: Duration = .seconds(30)
    /// The largest request head (all header names and values) answered normally; a larger one is
    /// 400 `invalid_request`.
    public var maxHeaderBytes: Int = 16 * 1024
    /// How often expired challenges and sessions, stale pending registrations and spent limit
    /// counters are purged.
    public var purgeInterval: Duration = .seconds(300)
    /// How long sessions are kept after they expired or were revoked, before the purge removes them.
    public var expiredSessionRetention: Duration = Housekeeping.defaultRetention
    /// How long audit events (and counted failures) are kept before the purge removes them.
    public var auditRetention: Duration = Housekeeping.defaultAuditRetention
    /// How recent a session's last primary authentication must be for a call that changes a
    /// credential (registering a device key, setting a PIN, changing the password).
    public var stepUpWindow: Duration = .seconds(5 * 60)
    /// The file of server keys PIN hashes are made with (see docs/DEPLOYMENT.md). When `nil`, a
    /// SQLite server uses `<database>.pin-key` beside its database file, created at first start;
    /// PostgreSQL instances must be given one file, the same for all.
    public var pinKeyFile: String?
    /// Keys given directly instead of a file (tests).
    var pinKeyRing: PINKeyRing?
    /// The clock (tests move it).
    var timeSource: TimeSource = .system

    /// The defaults of `bioauth serve`.
    public init() {}
}

extension ServerConfiguration {
    /// The database location fit for logs: a PostgreSQL URL without its password.
    public var databaseDescription: String {
        PostgresDatabaseProvider.isURL(databasePath) ? PostgresDatabaseProvider.redacted(databasePath) : databasePath
    }

    /// Uses a clock other than the system's; for tests that move time.
    public mutating func useClock(_ now: @escaping @Sendable () -> Date) {
        timeSource = TimeSource(now: now)
    }
}
