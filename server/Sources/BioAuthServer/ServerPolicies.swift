import BioAuthAttestation
import BioAuthWebAuthn
import Foundation
import Logging
import NIOCore
import X509

/// The policies every service is built with, each made once from the configuration at start: the
/// PIN keys, the passkey relying party, the device keys' evidence policy, the hashing bound and the
/// challenge rate. Making them checks every setting that names a file or needs another, so a
/// setting that cannot work is refused before any database is touched.
package struct ServerPolicies: Sendable {
    /// The keys PIN hashes are made with (the current one also keys authentication challenges and
    /// passkey sign-in decoys).
    var pinKeys: PINKeyRing
    /// The passkey relying party: id, origins, requirements, attestation roots.
    var relyingParty: RelyingParty
    /// Device keys' hardware evidence, as the operator asks for it.
    var keyAttestation: KeyAttestationPolicy
    /// Whether accounts may add passkeys: not under `--key-attestation require` when nothing
    /// would vouch for a passkey's hardware (`--webauthn-attestation none`), unless the operator
    /// allows it (`--allow-unattested-passkeys`).
    var passkeysAllowed: Bool
    /// The bound on password and PIN hashes every request shares.
    var hashing: HashingBudget
    /// This instance's count of authentication challenges per registration.
    var challengeRate: ChallengeRateLimit
    /// What seals the access-token signing keys in the database.
    var signingKeyWrap: SigningKeyWrap

    /// The policies `configuration` describes; tests give throwaway PIN keys, or an evidence policy
    /// over their own App Attest root.
    init(configuration: ServerConfiguration, pinKeys: PINKeyRing? = nil, keyAttestation: KeyAttestationPolicy? = nil, logger: Logger? = nil) throws {
        relyingParty = try Self.relyingParty(configuration)
        self.keyAttestation = try keyAttestation ?? Self.keyAttestationPolicy(configuration)
        let pinKeys = try pinKeys ?? Self.pinKeyRing(configuration, logger: logger)  // last: it may create the SQLite server's key file
        self.pinKeys = pinKeys
        signingKeyWrap = try Self.signingKeyWrap(configuration, pinKeys: pinKeys)
        passkeysAllowed =
            configuration.keyAttestation != .require || configuration.webAuthnAttestation == .direct || configuration.allowUnattestedPasskeys
        hashing = Self.hashingBudget(configuration)
        challengeRate = ChallengeRateLimit(perMinute: configuration.challengesPerRegistrationPerMinute)
    }

    /// The bound on hashes the configuration sets: a worker per core (NIO's thread pool has as many).
    static func hashingBudget(_ configuration: ServerConfiguration) -> HashingBudget {
        let cores = System.coreCount
        return HashingBudget(
            workers: cores,
            queueLimit: configuration.hashQueue == 0 ? 4 * cores : configuration.hashQueue,
            perClient: configuration.hashesPerAddress
        )
    }

    /// The PIN keys: from the named file, or (SQLite only) from `<database>.pin-key`,
    /// created at first start. Instances sharing a PostgreSQL must share one key file, so one is
    /// never made up for them. A key beside the database is fine for development (relying party
    /// `localhost`); anywhere else it is logged as a warning: a stolen disk or backup holds both.
    static func pinKeyRing(_ configuration: ServerConfiguration, logger: Logger? = nil) throws -> PINKeyRing {
        let postgres = DatabaseLocation.isPostgres(configuration.databasePath)
        if let file = configuration.pinKeyFile { return try PINKeyRing.load(path: file, create: !postgres) }
        guard !postgres else {
            throw PINKeyRing.FileError(
                description:
                    "a PostgreSQL server needs --pin-key-file (BIOAUTH_PIN_KEY_FILE), the same file for every instance; see docs/DEPLOYMENT.md"
            )
        }
        let beside = configuration.databasePath + ".pin-key"
        if configuration.relyingPartyID != "localhost" {
            logger?.warning(
                """
                the PIN key is \(beside), beside the database: a stolen disk or backup holds both, and PINs fall to an offline \
                search; give --pin-key-file (BIOAUTH_PIN_KEY_FILE) a file kept apart (docs/DEPLOYMENT.md)
                """
            )
        }
        return try PINKeyRing.load(path: beside, create: true)
    }

    /// What seals the signing keys: the keys of `--signing-key-file` (created beside a SQLite
    /// database's own when missing, as the PIN key file is; a PostgreSQL fleet's must exist), or
    /// keys derived from the PIN keys when none is named.
    static func signingKeyWrap(_ configuration: ServerConfiguration, pinKeys: PINKeyRing) throws -> SigningKeyWrap {
        guard let file = configuration.signingKeyFile else { return SigningKeyWrap(derivedFrom: pinKeys) }
        return try SigningKeyWrap.load(path: file, create: !DatabaseLocation.isPostgres(configuration.databasePath))
    }

    /// The passkey relying party the configuration describes; `direct` attestation reads its
    /// roots from ``ServerConfiguration/webAuthnTrustRootsFile``.
    static func relyingParty(_ configuration: ServerConfiguration) throws -> RelyingParty {
        var party = RelyingParty(
            id: configuration.relyingPartyID,
            name: configuration.relyingPartyName,
            origins: Set(configuration.allowedWebAuthnOrigins)
        )
        party.topOrigins = Set(configuration.webAuthnTopOrigins)
        party.userVerification = configuration.webAuthnUserVerification
        if configuration.webAuthnAttestation == .direct {
            guard let file = configuration.webAuthnTrustRootsFile else {
                throw SettingError("--webauthn-attestation direct needs --webauthn-trust-roots (a PEM file of attestation roots).")
            }
            let roots: [Certificate]
            do {
                roots = try AttestationPolicy.certificates(pem: String(contentsOfFile: file, encoding: .utf8))
            } catch {
                throw SettingError("--webauthn-trust-roots \(file) is not a readable PEM file of certificates.")
            }
            guard !roots.isEmpty else { throw SettingError("--webauthn-trust-roots \(file) holds no certificate.") }
            party.attestation = .direct(roots: roots)
        }
        return party
    }

    /// The device-key evidence policy the configuration describes: Google's roots and the
    /// operator's, the status list, the allowed apps. `prefer` and `require` need an allowed app.
    package static func keyAttestationPolicy(_ configuration: ServerConfiguration) throws -> KeyAttestationPolicy {
        let mode = configuration.keyAttestation
        guard mode != .none else { return KeyAttestationPolicy(mode: .none) }
        let androidApps = configuration.androidAllowedApps.compactMap(AndroidAllowedApp.init)
        let appIDs = configuration.appAttestAppIDs
        guard !androidApps.isEmpty || !appIDs.isEmpty else {
            throw SettingError("--key-attestation \(mode.rawValue) needs --android-allowed-app or --app-attest-app-id: no app could register a key.")
        }
        var policy = KeyAttestationPolicy(mode: mode)
        if !androidApps.isEmpty {
            var roots = AttestationRoots.googleHardware
            if let file = configuration.androidAttestationRootsFile {
                guard let extra = try? AttestationPolicy.certificates(pem: String(contentsOfFile: file, encoding: .utf8)), !extra.isEmpty else {
                    throw SettingError("--android-attestation-roots \(file) is not a readable PEM file of certificates.")
                }
                roots += extra
            }
            var revocations = AndroidRevocationList()
            if let file = configuration.androidRevocationsFile {
                guard let data = FileManager.default.contents(atPath: file), let list = try? AndroidRevocationList(json: data) else {
                    throw SettingError("--android-revocations \(file) is not a readable attestation status list (Google's JSON).")
                }
                revocations = list
            }
            policy.android = AndroidKeyAttestationVerifier(
                roots: roots,
                revocations: revocations,
                policy: AndroidAttestationPolicy(
                    allowedApps: androidApps,
                    requireStrongBox: configuration.androidRequireStrongBox,
                    boot: configuration.androidBoot
                )
            )
        }
        if !appIDs.isEmpty {
            policy.appAttest = AppAttestVerifier(policy: AppAttestPolicy(appIDs: appIDs, environment: configuration.appAttestEnvironment))
        }
        return policy
    }

}
