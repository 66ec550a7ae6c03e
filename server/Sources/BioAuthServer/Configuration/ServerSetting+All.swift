import BioAuthAttestation
import BioAuthWebAuthn
import Foundation
import Logging

extension ServerSetting {
    /// `--host`.
    package static let host = text("host", \.host, "Address to listen on")
    /// `--port`.
    package static let port = integer("port", \.port, 0...65_535, "Port to listen on; 0 picks a free one")
    /// `--metrics-host`.
    package static let metricsHost = text("metrics-host", \.metricsHost, "Address the metrics listener (GET /metrics) binds; keep it private")
    /// `--metrics-port`.
    package static let metricsPort = integer("metrics-port", \.metricsPort, 0...65_535, "Port of the metrics listener; 0 picks a free one")
    /// `--database`.
    package static let database = text(
        "database",
        \.databasePath,
        "postgres://USER:PASSWORD@HOST:PORT/DATABASE for PostgreSQL, anything else a SQLite file"
    )
    /// `--database-connections`.
    package static let databaseConnections = integer(
        "database-connections",
        \.databaseMaxConnections,
        1...1_000,
        "Most PostgreSQL connections this instance opens"
    )
    /// `--database-wait`.
    package static let databaseWait = duration(
        "database-wait",
        \.databaseWait,
        1...60,
        in: .seconds,
        "Seconds a request waits for a PostgreSQL connection; then 503 unavailable"
    )
    /// `--event-loops`.
    package static let eventLoops = integer(
        "event-loops",
        \.eventLoops,
        0...256,
        "Threads serving HTTP connections; 0 for half the cores, at least one"
    )
    /// `--relying-party`.
    package static let relyingParty = text(
        "relying-party",
        \.relyingPartyID,
        "Relying-party id signed into every message, 1 to 255 bytes",
        isValid: { !$0.isEmpty && $0.utf8.count <= 255 }
    )
    /// `--challenge-ttl`.
    package static let challengeTTL = duration("challenge-ttl", \.challengeTTL, 1...3_600, in: .seconds, "Challenge lifetime in seconds")
    /// `--session-minutes`.
    package static let sessionMinutes = integer(
        "session-minutes",
        \.defaultSessionMinutes,
        5...43_200,
        unit: "minutes",
        "Session lifetime when the client asks for none"
    )
    /// `--session-max-minutes`.
    package static let sessionMaxMinutes = integer(
        "session-max-minutes",
        \.maxSessionMinutes,
        5...43_200,
        unit: "minutes",
        "Longest session lifetime any sign-in gets; a longer request is cut to it"
    )
    /// `--session-idle-minutes`.
    package static let sessionIdleMinutes = integer(
        "session-idle-minutes",
        \.sessionIdleMinutes,
        0...43_200,
        unit: "minutes",
        "Minutes without a request after which a session ends; 0 for no idle timeout"
    )
    /// `--password-cost`.
    package static let passwordCost = number(
        "password-cost",
        \.passwordHashCost,
        10...16,
        "bcrypt cost for passwords and PINs",
        store: { UInt8($0) },
        show: { Int($0) }
    )
    /// `--max-registrations`.
    package static let maxRegistrations = integer(
        "max-registrations",
        \.maxRegistrationsPerUser,
        1...1_000,
        "Registrations (pending and active) per user"
    )
    /// `--max-pending-registrations`.
    package static let maxPendingRegistrations = integer(
        "max-pending-registrations",
        \.maxPendingRegistrationsPerUser,
        1...1_000,
        "Unverified registrations per user"
    )
    /// `--challenges-per-minute`.
    package static let challengesPerMinute = integer(
        "challenges-per-minute",
        \.challengesPerRegistrationPerMinute,
        1...10_000,
        "Authentication challenges per registration per minute"
    )
    /// `--requests-per-minute`.
    package static let requestsPerMinute = integer(
        "requests-per-minute",
        \.requestsPerMinutePerAddress,
        1...1_000_000,
        "Requests per client address per minute, per instance"
    )
    /// `--max-connections`.
    package static let maxConnections = integer(
        "max-connections",
        \.maxConnections,
        0...1_000_000,
        "Open client connections at most, all addresses together; 0 fits the descriptor limit, at most 4096"
    )
    /// `--max-connections-per-address`.
    package static let maxConnectionsPerAddress = integer(
        "max-connections-per-address",
        \.maxConnectionsPerAddress,
        1...1_000_000,
        "Open connections one client (IPv4 address, IPv6 /64) may hold, at most a quarter of the total; behind --trust-forwarded-for, the proxy's and uncapped"
    )
    /// `--hash-queue`.
    package static let hashQueue = integer(
        "hash-queue",
        \.hashQueue,
        0...100_000,
        "Password and PIN checks that may wait for a core beyond each client's first (clients take turns); one more is 503 unavailable. 0: four per core"
    )
    /// `--hashes-per-address`.
    package static let hashesPerAddress = integer(
        "hashes-per-address",
        \.hashesPerAddress,
        1...10_000,
        "Password and PIN checks one client (IPv4 address, IPv6 /64) may have running or waiting; one more is 429 rate_limited"
    )
    /// `--trust-forwarded-for`.
    package static let trustForwardedFor = toggle(
        "trust-forwarded-for",
        \.trustForwardedFor,
        "Take the client address from X-Forwarded-For (only behind a proxy that sets it)"
    )
    /// `--request-timeout`.
    package static let requestTimeout = duration(
        "request-timeout",
        \.requestTimeout,
        1...3_600,
        in: .seconds,
        "Seconds a connection may stay silent before it is closed, and the most a request body may take to arrive"
    )
    /// `--max-header-bytes`.
    package static let maxHeaderBytes = integer("max-header-bytes", \.maxHeaderBytes, 1_024...1_048_576, unit: "bytes", "Largest request head")
    /// `--purge-interval`.
    package static let purgeInterval = duration("purge-interval", \.purgeInterval, 1...86_400, in: .seconds, "Seconds between purges of expired rows")
    /// `--session-retention-days`.
    package static let sessionRetentionDays = duration(
        "session-retention-days",
        \.expiredSessionRetention,
        0...3_650,
        in: .days,
        "How long expired and revoked sessions are kept before the purge"
    )
    /// `--audit-retention-days`.
    package static let auditRetentionDays = duration(
        "audit-retention-days",
        \.auditRetention,
        1...3_650,
        in: .days,
        "How long audit events, and idle failure counters, are kept before the purge"
    )
    /// `--lockout-threshold`.
    package static let lockoutThreshold = integer(
        "lockout-threshold",
        \.lockoutThreshold,
        1...100,
        "Consecutive failures of the password or a PIN that lock it, each time"
    )
    /// `--lockout-minutes`.
    package static let lockoutMinutes = duration(
        "lockout-minutes",
        \.lockoutDuration,
        1...1_440,
        in: .minutes,
        "How long the first lock lasts; each further lock in a row lasts twice as long"
    )
    /// `--lockout-max-minutes`.
    package static let lockoutMaxMinutes = duration(
        "lockout-max-minutes",
        \.longestLockout,
        1...43_200,
        in: .minutes,
        "The longest a timed lock lasts"
    )
    /// `--password-max-failures`.
    package static let passwordMaxFailures = integer(
        "password-max-failures",
        \.passwordMaxFailures,
        1...100,
        "Consecutive password failures after which the password stays locked until an operator unlocks it (NIST SP 800-63B: at most 100)"
    )
    /// `--pin-max-lockouts`.
    package static let pinMaxLockouts = integer(
        "pin-max-lockouts",
        \.pinMaxLockouts,
        1...10,
        "PIN locks in a row after which only a password sign-in unlocks the PIN"
    )
    /// `--one-time-password-hours`, a setting of `bioauth admin` (which sets the password and its expiry).
    package static let oneTimePasswordHours = ServerSetting.number(
        "one-time-password-hours",
        \.oneTimePasswordLifetime,
        1...720,
        unit: "hours",
        "How long a one-time password set by bioauth admin may sign in (once)",
        store: { .seconds($0 * 3_600) },
        show: { Int($0.components.seconds) / 3_600 }
    )
    /// `--step-up-minutes`.
    package static let stepUpMinutes = duration(
        "step-up-minutes",
        \.stepUpWindow,
        1...60,
        in: .minutes,
        "How recent a sign-in or re-authentication with the password, a biometric key or a passkey must be to add a device key, a passkey or a PIN, or to change the password"
    )
    /// `--pin-key-file`.
    package static let pinKeyFile = file(
        "pin-key-file",
        \.pinKeyFile,
        "File of the server keys PIN hashes are made with; required with PostgreSQL (the same file on every instance)",
        defaultText: "beside a SQLite database, its path + .pin-key, created at first start"
    )
    /// `--relying-party-name`.
    package static let relyingPartyName = text(
        "relying-party-name",
        \.relyingPartyName,
        "The relying party's name in passkey prompts",
        isValid: { !$0.isEmpty && $0.utf8.count <= 64 }
    )
    /// `--webauthn-origin`, repeatable.
    package static let webAuthnOrigin = list(
        "webauthn-origin",
        \.webAuthnOrigins,
        "An origin passkey ceremonies and browser sessions may come from (repeat it, or commas in the variable); default https://RELYING-PARTY, and http://localhost:PORT for localhost",
        defaultText: "https://RELYING-PARTY (and http://localhost:PORT for localhost)",
        isValid: Self.isOrigin
    )
    /// `--webauthn-top-origin`, repeatable.
    package static let webAuthnTopOrigin = list(
        "webauthn-top-origin",
        \.webAuthnTopOrigins,
        "A top-level origin allowed to embed a passkey ceremony in a cross-origin iframe (repeatable); none by default",
        isValid: Self.isOrigin
    )
    /// `--webauthn-user-verification`.
    package static let webAuthnUserVerification = choice(
        "webauthn-user-verification",
        \.webAuthnUserVerification,
        "required (a passkey must verify its user) or preferred"
    )
    /// `--webauthn-attestation`.
    package static let webAuthnAttestation = choice(
        "webauthn-attestation",
        \.webAuthnAttestation,
        "none, or direct (only authenticators certified by --webauthn-trust-roots)"
    )
    /// `--webauthn-trust-roots`.
    package static let webAuthnTrustRoots = file(
        "webauthn-trust-roots",
        \.webAuthnTrustRootsFile,
        "PEM file of the attestation roots --webauthn-attestation direct accepts"
    )
    /// `--key-attestation`.
    package static let keyAttestation = choice(
        "key-attestation",
        \.keyAttestation,
        "Hardware evidence for device keys: none, prefer (verified and shown; keys without it still register) or require"
    )
    /// `--confirmation-pin`.
    package static let confirmationPIN = choice(
        "confirmation-pin",
        \.confirmationPIN,
        "Whether a PIN key with its PIN may approve confirmations (payments, actions): allow or deny (only biometrics or a passkey)"
    )
    /// `--allow-unattested-passkeys`.
    package static let allowUnattestedPasskeys = toggle(
        "allow-unattested-passkeys",
        \.allowUnattestedPasskeys,
        "Under --key-attestation require with --webauthn-attestation none, still let accounts add passkeys (a stolen session can then add its own)"
    )
    /// `--step-up-needs-verified-key`.
    package static let stepUpNeedsVerifiedKey = toggle(
        "step-up-needs-verified-key",
        \.stepUpNeedsVerifiedKey,
        "A device key whose hardware evidence did not verify (registered under --key-attestation none or prefer) signs in, but not for credential changes (step-up)"
    )
    /// `--android-allowed-app`, repeatable.
    package static let androidAllowedApp = list(
        "android-allowed-app",
        \.androidAllowedApps,
        "An Android app whose keys are accepted, as package:SHA-256 of its signing certificate (repeatable)",
        isValid: { AndroidAllowedApp($0) != nil }
    )
    /// `--android-require-strongbox`.
    package static let androidRequireStrongBox = toggle(
        "android-require-strongbox",
        \.androidRequireStrongBox,
        "Accept only Android keys in StrongBox, not in the TEE"
    )
    /// `--android-boot`.
    package static let androidBoot = choice(
        "android-boot",
        \.androidBoot,
        "The Android boot states accepted: verified, self-signed (a locked bootloader with the user's key) or any"
    )
    /// `--android-attestation-roots`.
    package static let androidAttestationRoots = file(
        "android-attestation-roots",
        \.androidAttestationRootsFile,
        "PEM file of Android attestation roots accepted besides Google's"
    )
    /// `--android-revocations`.
    package static let androidRevocations = file(
        "android-revocations",
        \.androidRevocationsFile,
        "Google's attestation status list (https://android.googleapis.com/attestation/status) as a file; refresh it daily"
    )
    /// `--app-attest-app-id`, repeatable.
    package static let appAttestAppID = list(
        "app-attest-app-id",
        \.appAttestAppIDs,
        "An iOS app whose keys are accepted, as TEAMID.bundle.id (repeatable)",
        isValid: Self.isAppID
    )
    /// `--app-attest-environment`.
    package static let appAttestEnvironment = choice(
        "app-attest-environment",
        \.appAttestEnvironment,
        "The App Attest environment accepted: production or development"
    )
    /// `--issuer`.
    package static let issuer = ServerSetting(
        flag: "issuer",
        summary: "The server's public address, the access tokens' iss: an https URL without query or fragment (http only for localhost)",
        defaultText: "https://RELYING-PARTY",
        value: { $0.issuer }
    ) { configuration, text in
        guard isIssuer(text) else { return .outOfRange }
        configuration.issuer = text
        return .written
    }
    /// `--access-token-audience`, repeatable.
    package static let accessTokenAudience = list(
        "access-token-audience",
        \.accessTokenAudiences,
        "An audience (aud) every access token names: the app's backends (repeatable)",
        defaultText: "the issuer",
        isValid: { !$0.isEmpty && $0.utf8.count <= 255 }
    )
    /// `--access-token-lifetime`.
    package static let accessTokenLifetime = duration(
        "access-token-lifetime",
        \.accessTokenLifetime,
        30...3_600,
        in: .seconds,
        "Seconds an access token lives; a revoked session's tokens live on at most this long"
    )
    /// `--access-token-algorithm`.
    package static let accessTokenAlgorithm = choice(
        "access-token-algorithm",
        \.accessTokenAlgorithm,
        "What new signing keys sign access tokens with: ES256 or EdDSA (Ed25519)"
    )
    /// `--signing-key-file`.
    package static let signingKeyFile = file(
        "signing-key-file",
        \.signingKeyFile,
        "File of the keys that seal the access-token signing keys in the database (the same file on every instance)",
        defaultText: "keys derived from the PIN key file"
    )
    /// `--signing-key-rotation-days`.
    package static let signingKeyRotationDays = duration(
        "signing-key-rotation-days",
        \.signingKeyRotation,
        1...365,
        in: .days,
        "Days an access-token signing key signs before the housekeeping replaces it"
    )
    /// `--log-level`.
    package static let logLevel = ServerSetting(
        flag: "log-level",
        summary: "trace, debug, info, notice, warning, error or critical",
        value: { $0.logLevel.rawValue }
    ) { configuration, text in
        guard let level = Logger.Level(rawValue: text) else { return .notAValue }
        configuration.logLevel = level
        return .written
    }

    /// Every setting of `bioauth serve`, in `--help`'s order.
    package static let all: [ServerSetting] = [
        host, port, metricsHost, metricsPort, database, databaseConnections, databaseWait, eventLoops, relyingParty, challengeTTL, sessionMinutes,
        sessionMaxMinutes, sessionIdleMinutes, passwordCost, maxRegistrations, maxPendingRegistrations, challengesPerMinute, requestsPerMinute,
        maxConnections, maxConnectionsPerAddress, hashQueue, hashesPerAddress, trustForwardedFor, requestTimeout, maxHeaderBytes,
        purgeInterval, sessionRetentionDays, auditRetentionDays, lockoutThreshold, lockoutMinutes, lockoutMaxMinutes, passwordMaxFailures,
        pinMaxLockouts, stepUpMinutes, pinKeyFile, relyingPartyName,
        webAuthnOrigin, webAuthnTopOrigin, webAuthnUserVerification, webAuthnAttestation, webAuthnTrustRoots, keyAttestation,
        allowUnattestedPasskeys, stepUpNeedsVerifiedKey, confirmationPIN, androidAllowedApp, androidRequireStrongBox, androidBoot,
        androidAttestationRoots,
        androidRevocations, appAttestAppID, appAttestEnvironment, issuer, accessTokenAudience, accessTokenLifetime, accessTokenAlgorithm,
        signingKeyFile, signingKeyRotationDays,
        logLevel,
    ]

    /// An App ID: a ten-character team id, a dot, and a bundle id.
    static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1)
        return parts.count == 2 && parts[0].count == 10 && parts[0].allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }

    /// An issuer: an `https` URL (`http` for `localhost` or `127.0.0.1`) with a host, no query,
    /// fragment, user or trailing slash (RFC 8414 §2).
    static func isIssuer(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty, !text.hasSuffix("/") else { return false }
        let local = host == "localhost" || host == "127.0.0.1"
        return (scheme == "https" || (scheme == "http" && local)) && url.query == nil && url.fragment == nil && url.user == nil
            && !text.contains("?") && !text.contains("#")
    }

    /// A web origin as browsers serialise it: a scheme, `://`, a host and an optional port; no
    /// path, and no trailing slash.
    static func isOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty else { return false }
        return ["https", "http"].contains(scheme) && url.path.isEmpty && url.query == nil && url.fragment == nil && url.user == nil
            && text == "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}

extension ServerConfiguration {
    /// A configuration from the flags given (by ``ServerSetting/flag``, as text), then the
    /// environment's variables, then the defaults; every value checked.
    package static func resolve(
        flags: [String: String],
        environment: [String: String],
        settings: [ServerSetting] = ServerSetting.all
    ) throws(SettingError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        for setting in settings {
            if let text = flags[setting.flag] {
                try setting.apply(text, fromFlag: true, to: &configuration)
            } else if let text = environment[setting.variable] {
                try setting.apply(text, fromFlag: false, to: &configuration)
            }
        }
        if configuration.port != 0, configuration.port == configuration.metricsPort, configuration.host == configuration.metricsHost {
            throw SettingError(
                "--\(ServerSetting.metricsPort.flag) must differ from --\(ServerSetting.port.flag) on the same host (both are \(configuration.port))."
            )
        }
        return configuration
    }
}
