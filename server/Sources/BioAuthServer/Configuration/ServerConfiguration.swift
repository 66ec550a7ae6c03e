import BioAuthAttestation
import BioAuthProtocol
import BioAuthWebAuthn
import Foundation
import Logging

/// Everything the server can be told at start.
package struct ServerConfiguration: Sendable {
    /// Address to listen on.
    package var host: String = "127.0.0.1"
    /// Port to listen on (0 picks a free one).
    package var port: Int = 8080
    /// Address the metrics listener (`GET /metrics`, Prometheus) binds; keep it private.
    package var metricsHost: String = "127.0.0.1"
    /// Port of the metrics listener (0 picks a free one).
    package var metricsPort: Int = 9464
    /// Where the data lives: a `postgres://USER:PASSWORD@HOST:PORT/DATABASE` URL (PostgreSQL,
    /// several instances may share it) or anything else, the path of a SQLite file.
    package var databasePath: String = "./bioauth.sqlite"
    /// Largest number of PostgreSQL connections this instance opens (ignored for SQLite).
    package var databaseMaxConnections: Int = 20
    /// The longest a request waits for a PostgreSQL connection (all busy, or PostgreSQL down)
    /// before it is answered 503 `unavailable`.
    package var databaseWait: Duration = .seconds(2)
    /// Threads serving the HTTP connections (NIO event loops); 0 for ``automaticEventLoops``.
    package var eventLoops: Int = 0
    /// The relying-party id every signed message must name.
    package var relyingPartyID: String = "localhost"
    /// How long a challenge can be answered.
    package var challengeTTL: Duration = .seconds(120)
    /// Session lifetime when the client asks for none, in minutes.
    package var defaultSessionMinutes: Int = ProtocolLimits.defaultSessionDurationMinutes
    /// The longest session lifetime any sign-in gets, in minutes; a longer request is cut to it.
    package var maxSessionMinutes: Int = 24 * 60
    /// Minutes without a request after which a session ends; 0 for no idle timeout.
    package var sessionIdleMinutes: Int = 0
    /// How long a one-time password an operator sets may sign in (once).
    package var oneTimePasswordLifetime: Duration = .seconds(24 * 60 * 60)
    /// bcrypt cost for passwords and PINs.
    package var passwordHashCost: UInt8 = PasswordHasher.defaultCost
    /// Registrations (pending and active) one user may hold.
    package var maxRegistrationsPerUser: Int = 10
    /// Consecutive failures of the password or a PIN that lock it, each time (``LockoutPolicy``).
    package var lockoutThreshold: Int = 5
    /// How long the first lock in a row lasts; each next one twice as long.
    package var lockoutDuration: Duration = .seconds(15 * 60)
    /// The longest a timed lock lasts.
    package var longestLockout: Duration = .seconds(24 * 60 * 60)
    /// Consecutive password failures after which the password stays locked until an operator unlocks it.
    package var passwordMaxFailures: Int = 100
    /// PIN locks in a row after which only a password sign-in unlocks the PIN.
    package var pinMaxLockouts: Int = 3
    /// Pending (started, not yet verified) registrations one user may hold; one more is
    /// 409 `too_many_registrations`.
    package var maxPendingRegistrationsPerUser: Int = 3
    /// Authentication challenges one registration may be issued per clock minute; one more is
    /// 429 `rate_limited`. Counted by each instance in its own memory.
    package var challengesPerRegistrationPerMinute: Int = 10
    /// Requests one client address may make per clock minute; one more is 429 `rate_limited`.
    /// Counted in memory: the limit is per server instance.
    package var requestsPerMinutePerAddress: Int = 600
    /// Open client connections at most, all addresses together; past it the server stops accepting
    /// until one closes (the kernel's backlog holds the rest). 0: as many as the descriptor limit
    /// leaves room for, at most ``DescriptorBudget/defaultConnections``.
    package var maxConnections: Int = 0
    /// Open connections one client (the TCP peer's ``ClientAddress/limitKey(_:)``) may hold, at
    /// most a quarter of ``maxConnections`` (not behind a trusted proxy); one more is closed as it
    /// is accepted.
    package var maxConnectionsPerAddress: Int = 64
    /// Password and PIN checks (bcrypt) that may wait for a core while every core hashes, beyond
    /// each client's first (clients are served in turn); one more is 503 `unavailable`
    /// (``HashingBudget``). 0: four per core.
    package var hashQueue: Int = 0
    /// Password and PIN checks one client address may have running or waiting; one more is 429
    /// `rate_limited`.
    package var hashesPerAddress: Int = 2
    /// Take the client address from the last `X-Forwarded-For` entry (set only behind a proxy that
    /// writes it); otherwise the TCP peer address is the client.
    package var trustForwardedFor: Bool = false
    /// A connection that sends nothing for this long while a request is being read (or between
    /// requests) is closed: slow and stalled clients cannot hold connections.
    package var requestTimeout: Duration = .seconds(30)
    /// The largest request head (all header names and values) answered normally; a larger one is
    /// 400 `invalid_request`.
    package var maxHeaderBytes: Int = 16 * 1024
    /// How often expired challenges and sessions, stale pending registrations, idle failure
    /// counters and old audit events are purged.
    package var purgeInterval: Duration = .seconds(300)
    /// How long sessions are kept after they expired or were revoked, before the purge removes them.
    package var expiredSessionRetention: Duration = .seconds(7 * 24 * 60 * 60)
    /// How long audit events (and counted failures) are kept before the purge removes them.
    package var auditRetention: Duration = .seconds(365 * 24 * 60 * 60)
    /// How recent a session's last strong authentication (the password, a biometric key, a passkey)
    /// must be for a call that adds or changes a credential (a device key, the PIN, a passkey, the
    /// password).
    package var stepUpWindow: Duration = .seconds(5 * 60)
    /// The file of server keys PIN hashes are made with (see docs/DEPLOYMENT.md). When `nil`, a
    /// SQLite server uses `<database>.pin-key` beside its database file, created at first start;
    /// PostgreSQL instances must be given one file, the same for all.
    package var pinKeyFile: String?
    /// The relying party's name for people, in passkey prompts.
    package var relyingPartyName: String = "BioAuth"
    /// The origins a passkey ceremony and a browser session may come from, compared exactly;
    /// empty: `https://` and the relying-party id (and, for `localhost`, `http://localhost:` and
    /// the port). Also what `/.well-known/webauthn` lists.
    package var webAuthnOrigins: [String] = []
    /// The top-level origins allowed to embed a passkey ceremony in a cross-origin iframe; empty
    /// refuses every cross-origin ceremony.
    package var webAuthnTopOrigins: [String] = []
    /// Whether passkeys must verify their user (a PIN or biometric match): `required` refuses a
    /// clear UV flag.
    package var webAuthnUserVerification: RelyingParty.UserVerification = .required
    /// `none` (the default: no attestation asked for) or `direct` (a certified authenticator
    /// whose chain leads to one of ``webAuthnTrustRootsFile``'s roots).
    package var webAuthnAttestation: WebAuthnAttestation = .none
    /// A PEM file of the attestation roots `direct` accepts.
    package var webAuthnTrustRootsFile: String?
    /// Hardware evidence for device keys: `none` (not asked for), `prefer` (verified, recorded and
    /// shown; a key without it still registers) or `require`.
    package var keyAttestation: KeyAttestationMode = .none
    /// Whether a PIN key (with its PIN) may approve confirmations; a biometric key and a passkey
    /// always may.
    package var confirmationPIN: ConfirmationPINPolicy = .deny
    /// Under `require` with ``webAuthnAttestation`` `none`, whether accounts may still add
    /// passkeys, whose hardware nothing then vouches for (off: they are refused).
    package var allowUnattestedPasskeys: Bool = false
    /// A device key whose hardware evidence did not verify (registered under `none` or `prefer`)
    /// still signs in, but its sign-in steps up no more than a PIN's (``StepUp``).
    package var stepUpNeedsVerifiedKey: Bool = false
    /// Android apps whose keys are accepted: `package:SHA-256 of the signing certificate`.
    package var androidAllowedApps: [String] = []
    /// Accept only StrongBox keys from Android, not TEE ones.
    package var androidRequireStrongBox: Bool = false
    /// The Android boot states accepted: `verified`, `self-signed` or `any`.
    package var androidBoot: AndroidAttestationPolicy.BootPolicy = .verified
    /// A PEM file of Android attestation roots accepted besides Google's.
    package var androidAttestationRootsFile: String?
    /// Google's attestation status list, as a JSON file the operator refreshes.
    package var androidRevocationsFile: String?
    /// iOS apps whose keys are accepted: `TEAMID.bundle.id`.
    package var appAttestAppIDs: [String] = []
    /// The App Attest environment accepted: `production` or `development`.
    package var appAttestEnvironment: AppAttestEnvironment = .production
    /// The access tokens' issuer (`iss`), the server's public address; `nil`: `https://` and the
    /// relying-party id.
    package var issuer: String?
    /// The audiences (`aud`) every access token names; empty: the issuer.
    package var accessTokenAudiences: [String] = []
    /// How long an access token lives (at most ``AccessTokenAlgorithm/longestLifetime``).
    package var accessTokenLifetime: Duration = .seconds(300)
    /// The algorithm new signing keys are made for.
    package var accessTokenAlgorithm: AccessTokenAlgorithm = .es256
    /// The file of keys the signing keys' private halves are sealed with before they are stored;
    /// `nil`: keys derived from the PIN keys.
    package var signingKeyFile: String?
    /// How long a signing key signs before the housekeeping replaces it.
    package var signingKeyRotation: Duration = .seconds(30 * 86_400)
    /// The least severe log messages written.
    package var logLevel: Logger.Level = .info

    /// The defaults of `bioauth serve`.
    package init() {}
}

/// What passkey attestation a server asks for (`--webauthn-attestation`).
package enum WebAuthnAttestation: String, Sendable, CaseIterable {
    /// None asked for.
    case none
    /// Only authenticators whose chain leads to one of the operator's roots.
    case direct
}

/// What access tokens are signed with (`--access-token-algorithm`), as JWS names it.
package enum AccessTokenAlgorithm: String, Sendable, CaseIterable {
    /// ECDSA over P-256 with SHA-256.
    case es256 = "ES256"
    /// Ed25519.
    case edDSA = "EdDSA"

    /// The longest an access token may live, whatever the settings: a replaced signing key stays
    /// in the key set this long after it stopped signing.
    static let longestLifetime: Duration = .seconds(3_600)
}

extension ServerConfiguration {
    /// The passkey origins in force: ``webAuthnOrigins``, or the default they stand for.
    package var allowedWebAuthnOrigins: [String] {
        guard webAuthnOrigins.isEmpty else { return webAuthnOrigins }
        return ["https://\(relyingPartyID)"] + (relyingPartyID == "localhost" && port != 0 ? ["http://localhost:\(port)"] : [])
    }

    /// The access tokens' issuer in force: ``issuer``, or `https://` and the relying-party id.
    package var accessTokenIssuer: String { issuer ?? "https://\(relyingPartyID)" }

    /// The access tokens' audiences in force: ``accessTokenAudiences``, or the issuer.
    package var accessTokenAudienceList: [String] { accessTokenAudiences.isEmpty ? [accessTokenIssuer] : accessTokenAudiences }

    /// The event loops when none are set: half the cores, at least one. The handlers run on
    /// Swift's concurrency pool and the database on threads of its own, so the event loops only
    /// parse and write HTTP; one per core has them compete with the handlers for the cores (on
    /// two cores, one event loop costs about a seventh less CPU per sign-in than two).
    static var automaticEventLoops: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }

    /// The lockout policy these settings make.
    var lockoutPolicy: LockoutPolicy {
        LockoutPolicy(
            threshold: lockoutThreshold,
            firstLock: lockoutDuration,
            longestLock: longestLockout,
            passwordMaxFailures: passwordMaxFailures,
            pinMaxLockouts: pinMaxLockouts
        )
    }

    /// The session policy these settings make.
    var sessionPolicy: SessionPolicy {
        SessionPolicy(
            defaultMinutes: defaultSessionMinutes,
            maximumMinutes: maxSessionMinutes,
            idleMinutes: sessionIdleMinutes > 0 ? sessionIdleMinutes : nil
        )
    }

    /// The event loops this configuration runs.
    var eventLoopCount: Int { eventLoops > 0 ? eventLoops : Self.automaticEventLoops }

    /// The database location fit for logs: a PostgreSQL URL without its password.
    package var databaseDescription: String {
        DatabaseLocation.isPostgres(databasePath) ? DatabaseLocation.redacted(databasePath) : databasePath
    }
}

/// `--confirmation-pin`: whether the PIN factor (knowledge and possession) may approve a
/// confirmation.
package enum ConfirmationPINPolicy: String, Hashable, Sendable, CaseIterable {
    /// A PIN approves (the confirmation and its receipt say `pin`).
    case allow
    /// Only a biometric key or a passkey approves; a PIN is `403 confirmation_factor_not_allowed`.
    case deny
}
