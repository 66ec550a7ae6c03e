import BioAuthProtocol
import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Device signing keys behind biometrics.
///
/// - ``SignatureAlgorithm/es256`` (default): a P-256 key created inside the Secure Enclave with
///   `[.privateKeyUsage, <policy>]`; it cannot be exported, and every signature needs a match.
/// - ``SignatureAlgorithm/ed25519`` (opt-in, for servers that want Ed25519): the Secure Enclave
///   cannot hold Ed25519 keys, so the private key is a software key stored as a biometry-protected
///   keychain item; it is in app memory for the instant of signing, which makes it weaker than
///   ES256 against an attacker who already controls the process.
///
/// Signing shows the prompt exactly once (fresh context) unless an authenticated context is
/// handed in. Creating, deleting and checking never prompt.
public struct DeviceKeyStore: Sendable {
    let core: ProtectionCore

    /// A key store whose keys live under the keychain service `service`.
    public init(service: String, backends: DeviceBackends) {
        core = ProtectionCore(backends: backends, service: service + ".keys")
    }

    private func query(_ name: String, _ algorithm: SignatureAlgorithm) -> KeychainQuery {
        KeychainQuery(itemClass: algorithm == .es256 ? .key : .genericPassword, service: core.service, account: name)
    }

    /// What this device offers for a key of `algorithm` under `policy` now; never prompts.
    public func availability(algorithm: SignatureAlgorithm = .es256, policy: BiometricPolicy = .currentBiometrics) -> BiometricAvailability {
        core.availability(policy, needsSecureEnclave: algorithm == .es256)
    }

    /// Creates (replacing any previous) key `name`; never prompts.
    ///
    /// - Throws: ``BioAuthError/passcodeNotSet``, ``BioAuthError/biometryNotEnrolled``,
    ///   ``BioAuthError/secureEnclaveUnavailable``, … when the key cannot be made on this device
    ///   now (``availability(algorithm:policy:)`` says which, beforehand).
    public func createKey(
        named name: String,
        algorithm: SignatureAlgorithm = .es256,
        policy: BiometricPolicy = .currentBiometrics
    ) async throws(BioAuthError) -> DeviceKey {
        try core.preflight(policy, needsSecureEnclave: algorithm == .es256)
        await deleteKey(named: name)
        var query = query(name, algorithm)
        query.accessibility = BiometricPolicy.accessibility
        let publicBytes: Data
        switch algorithm {
        case .es256:
            query.accessControl = policy.accessControl.union(.privateKeyUsage)
            query.secureEnclave = true
            let (status, key) = core.backends.secureKeys.createRandomKey(query)
            guard status == .success, let key else { throw core.explainAdd(status == .success ? .notAvailable : status) }
            guard let point = core.backends.secureKeys.copyPublicKey(key) else { throw .systemFailure("no public key for the new key") }
            publicBytes = point
        case .ed25519:
            let privateKey = Curve25519.Signing.PrivateKey()
            query.accessControl = policy.accessControl
            query.data = privateKey.rawRepresentation
            let status = core.backends.keychain.add(query)
            guard status == .success else { throw core.explainAdd(status) }
            publicBytes = privateKey.publicKey.rawRepresentation
        }
        guard let publicKey = try? DevicePublicKey(algorithm: algorithm, bytes: publicBytes) else {
            throw .systemFailure("the platform returned an invalid public key")
        }
        var record = core.newRecord(policy)
        record.publicKey = publicKey.canonicalBytes
        record.algorithm = algorithm.rawValue
        try core.saveRecord(record, .key, name)
        return DeviceKey(name: name, publicKey: publicKey)
    }

    /// Creates (replacing any previous) key `name` that proves only possession of this device:
    /// a P-256 key in the Secure Enclave with `[.privateKeyUsage]`, usable without a biometric
    /// match or a prompt, never exportable, never leaving the device
    /// (`WhenUnlockedThisDeviceOnly`). It is the PIN's second factor: the PIN is the user check.
    func createPossessionKey(named name: String) async throws(BioAuthError) -> DeviceKey {
        guard core.backends.secureKeys.isSecureEnclaveAvailable else { throw .secureEnclaveUnavailable }
        await deleteKey(named: name)
        var query = query(name, .es256)
        query.accessibility = .whenUnlockedThisDeviceOnly
        query.accessControl = .privateKeyUsage
        query.secureEnclave = true
        let (status, key) = core.backends.secureKeys.createRandomKey(query)
        guard status == .success, let key else { throw StatusMapping.error(for: status == .success ? .notAvailable : status) }
        guard let point = core.backends.secureKeys.copyPublicKey(key),
            let publicKey = try? DevicePublicKey(algorithm: .es256, bytes: point)
        else {
            throw .systemFailure("the platform returned an invalid public key")
        }
        try core.saveRecord(
            ItemRecord(policy: nil, baseline: nil, publicKey: publicKey.canonicalBytes, algorithm: SignatureAlgorithm.es256.rawValue),
            .key,
            name
        )
        return DeviceKey(name: name, publicKey: publicKey)
    }

    /// The key created under `name`, from its public record; never prompts.
    ///
    /// - Throws: ``BioAuthError/itemNotFound`` when there is none.
    public func key(named name: String) async throws(BioAuthError) -> DeviceKey {
        guard let record = core.record(.key, name), let text = record.algorithm, let algorithm = SignatureAlgorithm(rawValue: text),
            let bytes = record.publicKey, let publicKey = try? DevicePublicKey(algorithm: algorithm, bytes: bytes)
        else { throw .itemNotFound }
        return DeviceKey(name: name, publicKey: publicKey)
    }

    /// Signs the contract's message with key `name`: one prompt.
    ///
    /// - Returns: A strict DER signature (ES256) or 64 bytes (Ed25519), ready for the wire.
    /// - Throws: ``BioAuthError/biometryChanged`` when an enrollment change destroyed the key,
    ///   ``BioAuthError/itemNotFound``, ``BioAuthError/userCanceled``, ….
    public func sign(
        _ message: SignedMessage,
        withKeyNamed name: String,
        prompt: String,
        context: SharedAuthentication? = nil
    ) async throws(BioAuthError) -> Data {
        guard let bytes = try? message.encoded() else { throw .systemFailure("message field too long") }
        return try await sign(bytes: bytes, withKeyNamed: name, prompt: prompt, context: context)
    }

    /// Signs raw bytes with key `name`: one prompt. Prefer ``sign(_:withKeyNamed:prompt:context:)``.
    public func sign(bytes: Data, withKeyNamed name: String, prompt: String, context: SharedAuthentication? = nil) async throws(BioAuthError) -> Data
    {
        let key = try await key(named: name)
        var query = query(name, key.algorithm)
        let authentication = core.context(context?.context)
        query.authenticationContext = authentication
        query.operationPrompt = prompt
        let matched = try await core.matchFirst(.key, name, context: context == nil ? authentication : nil, prompt: prompt) {
            probe(name, key.algorithm)
        }
        func explain(_ status: KeychainStatus) -> BioAuthError {
            matched ? core.explainAfterMatch(status) : core.explain(status, .key, name) { probe(name, key.algorithm) }
        }
        let canceled = KeychainStatus.localAuthentication(.appCancel)
        switch key.algorithm {
        case .es256:
            let (status, handle) = core.backends.secureKeys.copyKey(query)
            guard status == .success, let handle else { throw explain(status == .success ? .itemNotFound : status) }
            let secureKeys = core.backends.secureKeys
            let (signStatus, signature) = await PromptCall.run(invalidating: authentication, canceled: (canceled, nil)) {
                secureKeys.createSignature(handle, message: bytes)
            }
            guard signStatus == .success, let signature else { throw explain(signStatus == .success ? .authFailed : signStatus) }
            core.confirmBaseline(.key, name)
            return signature
        case .ed25519:
            query.returnData = true
            let keychain = core.backends.keychain
            let prepared = query
            let (status, data) = await PromptCall.run(invalidating: authentication, canceled: (canceled, nil)) { keychain.copyMatching(prepared) }
            guard status == .success, var raw = data else { throw explain(status == .success ? .itemNotFound : status) }
            defer { raw.resetBytes(in: 0..<raw.count) }  // best effort: do not keep the key around
            guard let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw),
                let signature = try? privateKey.signature(for: bytes)
            else { throw .systemFailure("stored Ed25519 key unusable") }
            core.confirmBaseline(.key, name)
            return Data(signature)
        }
    }

    /// Whether key `name` exists and is usable, as far as can be told without a prompt: a key an
    /// enrollment change invalidated (gone, or kept and failing), or one removed with the passcode,
    /// does not count.
    public func containsKey(named name: String) async -> Bool {
        await usability(ofKeyNamed: name) == .usable
    }

    /// Whether key `name` can still sign, decided without a prompt. Existing is not enough: an
    /// enrollment change invalidates a `.biometryCurrentSet` key (SecAccessControl.h), and a
    /// device may keep the reference. So the key is lost when its record or reference is gone, no
    /// identity is enrolled, or a signature on a context that may not show UI fails otherwise than
    /// by wanting UI while the domain state has moved (``ProtectionCore/loss(_:_:_:)``). A device
    /// may also answer "needs UI" for an invalidated key: the key then reads usable here, and its
    /// next use tells (``ProtectionCore/matchFirst(_:_:context:prompt:probe:)``).
    func usability(ofKeyNamed name: String) async -> KeyUsability {
        guard let key = try? await key(named: name) else { return .lost(.keyMissing) }
        if core.enrollmentChange(.key, name) == .certain { return .lost(.biometryChanged) }
        return core.loss(probe(name, key.algorithm), .key, name).map { .lost($0) } ?? .usable
    }

    /// Key `name` asked without UI: a signature (ES256) or a read (Ed25519) on a fresh context that
    /// may not show UI; never prompts.
    private func probe(_ name: String, _ algorithm: SignatureAlgorithm) -> ProbeAnswer {
        var query = query(name, algorithm)
        query.authenticationContext = core.context(nil)
        query.interactionNotAllowed = true
        let status: KeychainStatus
        switch algorithm {
        case .es256:
            let (found, handle) = core.backends.secureKeys.copyKey(query)
            if found == .success, let handle {
                status = core.backends.secureKeys.createSignature(handle, message: Data("usability probe".utf8)).status
            } else {
                status = found == .success ? .itemNotFound : found
            }
        case .ed25519:
            status = core.backends.keychain.copyMatching(query).status
        }
        switch status {
        case .success, .interactionNotAllowed: return .needsUI
        case .itemNotFound: return .missing
        default: return .refused(status)
        }
    }

    /// Whether the enrolled biometry seems to have changed since key `name` was created or last
    /// used; never prompts. Only an explanation of a failure: an OS update moves it too.
    public func enrollmentChanged(since name: String) async -> Bool {
        core.enrollmentChanged(.key, name)
    }

    /// Deletes key `name` (both kinds) and its record; never prompts.
    public func deleteKey(named name: String) async {
        _ = core.backends.secureKeys.deleteKey(query(name, .es256))
        _ = core.backends.keychain.delete(query(name, .ed25519))
        core.deleteRecord(.key, name)
    }
}
