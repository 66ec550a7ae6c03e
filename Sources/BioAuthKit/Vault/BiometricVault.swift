import Foundation

/// Named secrets (a session token, a PIN) that the secure hardware releases only after a real
/// biometric match.
///
/// - Writing never prompts: replacing is delete + add, never an update (which would prompt).
/// - Reading prompts exactly once, on a fresh `LAContext`, unless you hand in a context that a
///   match has already authenticated, to reuse it.
/// - ``contains(_:)`` never prompts.
///
/// Every operation runs off the caller's actor (it may block while the prompt is shown), so
/// calling from `@MainActor` code is safe.
public struct BiometricVault: Sendable {
    let core: ProtectionCore

    /// A vault whose items live under the keychain service `service`.
    public init(service: String, backends: DeviceBackends) {
        core = ProtectionCore(backends: backends, service: service)
    }

    private func itemQuery(_ name: String) -> KeychainQuery {
        KeychainQuery(itemClass: .genericPassword, service: core.service, account: name)
    }

    /// Stores `secret` under `name`, replacing any previous one, without prompting.
    ///
    /// - Parameter policy: ``BiometricPolicy/currentBiometrics`` unless you opt into another.
    /// - Throws: ``BioAuthError/passcodeNotSet``, ``BioAuthError/biometryNotEnrolled``,
    ///   ``BioAuthError/biometryNotAvailable``, ``BioAuthError/biometryLockout`` when the policy
    ///   cannot be satisfied on this device now.
    public func store(_ secret: Data, named name: String, policy: BiometricPolicy = .currentBiometrics) async throws(BioAuthError) {
        try core.preflight(policy)
        _ = core.backends.keychain.delete(itemQuery(name))
        var query = itemQuery(name)
        query.accessibility = BiometricPolicy.accessibility
        query.accessControl = policy.accessControl
        query.data = secret
        let status = core.backends.keychain.add(query)
        guard status == .success else { throw core.explainAdd(status) }
        try core.saveRecord(core.newRecord(policy), .secret, name)
    }

    /// Reads the secret stored under `name`; shows the prompt once.
    ///
    /// - Parameters:
    ///   - prompt: Why the app asks, shown in the prompt.
    ///   - context: An already-authenticated context to reuse (no second prompt); a fresh one if `nil`.
    /// - Throws: ``BioAuthError/biometryChanged`` when an enrollment change destroyed the item,
    ///   ``BioAuthError/itemNotFound`` when there is none, ``BioAuthError/userCanceled``, …
    public func read(_ name: String, prompt: String, context: SharedAuthentication? = nil) async throws(BioAuthError) -> Data {
        var query = itemQuery(name)
        query.returnData = true
        let authentication = core.context(context?.context)
        query.authenticationContext = authentication
        query.operationPrompt = prompt
        let matched = try await core.matchFirst(.secret, name, context: context == nil ? authentication : nil, prompt: prompt) { probe(name) }
        let keychain = core.backends.keychain
        let prepared = query
        let (status, data) = await PromptCall.run(invalidating: authentication, canceled: (KeychainStatus.localAuthentication(.appCancel), nil)) {
            keychain.copyMatching(prepared)
        }
        guard status == .success, let data else {
            let failure = status == .success ? KeychainStatus.itemNotFound : status
            throw matched ? core.explainAfterMatch(failure) : core.explain(failure, .secret, name) { probe(name) }
        }
        core.confirmBaseline(.secret, name)
        return data
    }

    /// Item `name` asked on a fresh context that may not show UI; never prompts.
    private func probe(_ name: String) -> ProbeAnswer {
        var query = itemQuery(name)
        query.authenticationContext = core.context(nil)
        query.interactionNotAllowed = true
        switch core.backends.keychain.copyMatching(query).status {
        case .success, .interactionNotAllowed: return .needsUI
        case .itemNotFound: return .missing
        case let status: return .refused(status)
        }
    }

    /// Whether a usable secret is stored under `name`, as far as can be told without a prompt: an
    /// item an enrollment change invalidated (gone, or kept and failing), or one deleted with the
    /// passcode, does not count.
    ///
    /// - Throws: a failure that says nothing about the item (``BioAuthError/missingEntitlement``, …).
    public func contains(_ name: String) async throws(BioAuthError) -> Bool {
        let answer = probe(name)
        let lost = core.loss(answer, .secret, name) != nil
        if !lost, case .refused(let status) = answer {
            // The item's own refusal of the user (a lockout, …) says it is there; anything else is thrown.
            let error = StatusMapping.error(for: status)
            if error == .missingEntitlement || !ProtectionCore.notAnInvalidation.contains(error.code) { throw error }
        }
        return !lost
    }

    /// Whether the enrolled biometry seems to have changed since `name` was stored or last read;
    /// never prompts. Only an explanation of a failure: an OS update moves it too.
    public func enrollmentChanged(since name: String) async -> Bool {
        core.enrollmentChanged(.secret, name)
    }

    /// Deletes the secret under `name` (no error when there is none); never prompts.
    public func delete(_ name: String) async throws(BioAuthError) {
        let status = core.backends.keychain.delete(itemQuery(name))
        core.deleteRecord(.secret, name)
        guard status == .success || status == .itemNotFound else { throw StatusMapping.error(for: status) }
    }

    /// A new authentication to pass to several reads so that they share one prompt.
    public func makeContext() -> SharedAuthentication {
        SharedAuthentication(core.backends.localAuthentication.makeContext())
    }
}
