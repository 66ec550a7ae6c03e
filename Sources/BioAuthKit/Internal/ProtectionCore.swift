import Foundation

/// What the vault and the key store share: contexts, preflight checks, the enrollment baseline
/// and the records; what a failure means is decided in `ProtectionCore+Loss.swift`.
struct ProtectionCore: Sendable {
    enum Kind: String {
        case secret, key
    }

    let backends: DeviceBackends
    let service: String

    var recordService: String { service + ".records" }

    /// The caller's context, or a fresh one: a context is never silently shared between operations.
    func context(_ given: (any AuthenticationContext)?) -> any AuthenticationContext {
        given ?? backends.localAuthentication.makeContext()
    }

    /// What the device offers for items or keys under `policy` now, without a prompt: the sensor,
    /// and the first obstacle (LocalAuthentication's answer for the policy, a passcode, the
    /// Secure Enclave when `needsSecureEnclave`, the keychain entitlement).
    func availability(_ policy: BiometricPolicy, needsSecureEnclave: Bool) -> BiometricAvailability {
        let context = backends.localAuthentication.makeContext()
        let answer = context.canEvaluatePolicy(policy.localAuthenticationPolicy)
        let biometry = context.biometryType  // set by canEvaluatePolicy
        func unavailable(_ obstacle: BiometricAvailability.Obstacle) -> BiometricAvailability {
            BiometricAvailability(biometry: biometry, obstacle: obstacle)
        }
        switch answer {
        case nil: break
        case .biometryNotEnrolled?: return unavailable(.notEnrolled)
        case .biometryLockout?: return unavailable(.lockedOut)
        case .passcodeNotSet?: return unavailable(.noPasscode)
        default: return unavailable(.noBiometry)
        }
        // Protected items need a passcode even when the policy is biometry only.
        if passcodeMissing() { return unavailable(.noPasscode) }
        if needsSecureEnclave, !backends.secureKeys.isSecureEnclaveAvailable { return unavailable(.noSecureEnclave) }
        let probe = KeychainQuery(itemClass: .genericPassword, service: recordService, account: "availability")
        if backends.keychain.copyMatching(probe).status == .missingEntitlement { return unavailable(.missingEntitlement) }
        return BiometricAvailability(biometry: biometry, obstacle: nil)
    }

    /// Fails unless items or keys under `policy` can be made now (``availability(_:needsSecureEnclave:)``).
    func preflight(_ policy: BiometricPolicy, needsSecureEnclave: Bool = false) throws(BioAuthError) {
        if let obstacle = availability(policy, needsSecureEnclave: needsSecureEnclave).obstacle { throw obstacle.error }
    }

    /// What LocalAuthentication says of the enrolled biometry now, without a prompt.
    struct DomainReading {
        /// `evaluatedPolicyDomainState`.
        var state: Data?
        /// iOS 18's `domainState.biometry.stateHash`.
        var stateHash: Data?
        /// `false` when it cannot be known now (for instance during a lockout, when
        /// LocalAuthentication withholds it).
        var comparable: Bool
    }

    /// The domain state now.
    func currentDomainState() -> DomainReading {
        let context = backends.localAuthentication.makeContext()
        switch context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics) {
        case nil: return DomainReading(state: context.evaluatedPolicyDomainState, stateHash: context.biometryStateHash, comparable: true)
        case .biometryNotEnrolled?: return DomainReading(comparable: true)  // every finger/face removed: a change too
        default: return DomainReading(comparable: false)
        }
    }

    /// How sure it is that the enrolled biometry changed since an item was made.
    enum EnrollmentChange {
        /// Nothing says so.
        case none
        /// The domain state moved: an enrollment change or a major OS update. Both
        /// `evaluatedPolicyDomainState` (LAContext.h) and iOS 18's `domainState.biometry.stateHash`
        /// (LADomainState.h) carry the same warning: "the value returned by this property can
        /// change exceptionally between major OS versions even if the state of biometry has not
        /// changed". It explains a failure; it never decides alone.
        case possible
        /// Every identity was removed: the enrolled set changed.
        case certain
    }

    /// Whether the enrolled biometry differs from the baseline recorded for the item (never prompts).
    func enrollmentChange(_ kind: Kind, _ name: String) -> EnrollmentChange {
        guard let record = record(kind, name), record.policy == .currentBiometrics else { return .none }
        let now = currentDomainState()
        guard now.comparable else { return .none }
        guard record.baseline != nil || record.stateHash != nil else { return .none }
        if now.state == nil, now.stateHash == nil { return .certain }  // every identity removed
        // iOS 18's hash where both readings have it, else the older domain state.
        if let hash = record.stateHash, let current = now.stateHash { return current == hash ? .none : .possible }
        return now.state != record.baseline ? .possible : .none
    }

    /// Whether the enrolled biometry seems to have changed since the item was made: an explanation
    /// of a failure (``enrollmentChange(_:_:)``).
    func enrollmentChanged(_ kind: Kind, _ name: String) -> Bool {
        enrollmentChange(kind, name) != .none
    }

    /// After the item or key was used successfully: a `.biometryCurrentSet` item that still works
    /// proves the enrolled set did not change, so a moved domain state (an OS update) becomes the
    /// new baseline.
    func confirmBaseline(_ kind: Kind, _ name: String) {
        guard var record = record(kind, name), record.policy == .currentBiometrics else { return }
        let now = currentDomainState()
        guard now.comparable, let state = now.state, state != record.baseline || now.stateHash != record.stateHash else { return }
        record.baseline = state
        record.stateHash = now.stateHash
        try? saveRecord(record, kind, name)
    }

    // MARK: records

    private func recordQuery(_ kind: Kind, _ name: String) -> KeychainQuery {
        KeychainQuery(itemClass: .genericPassword, service: recordService, account: kind.rawValue + ":" + name)
    }

    func record(_ kind: Kind, _ name: String) -> ItemRecord? {
        var query = recordQuery(kind, name)
        query.returnData = true
        let (status, data) = backends.keychain.copyMatching(query)
        guard status == .success, let data else { return nil }
        return try? JSONDecoder().decode(ItemRecord.self, from: data)
    }

    func saveRecord(_ record: ItemRecord, _ kind: Kind, _ name: String) throws(BioAuthError) {
        _ = backends.keychain.delete(recordQuery(kind, name))
        var query = recordQuery(kind, name)
        query.accessibility = .afterFirstUnlockThisDeviceOnly
        query.data = (try? JSONEncoder().encode(record)) ?? Data()
        let status = backends.keychain.add(query)
        guard status == .success else { throw StatusMapping.error(for: status) }
    }

    func deleteRecord(_ kind: Kind, _ name: String) {
        _ = backends.keychain.delete(recordQuery(kind, name))
    }

    /// A record for an item about to be created under `policy`.
    func newRecord(_ policy: BiometricPolicy) -> ItemRecord {
        guard policy == .currentBiometrics else { return ItemRecord(policy: policy) }
        let now = currentDomainState()
        return ItemRecord(policy: policy, baseline: now.state, stateHash: now.stateHash)
    }

    func passcodeMissing() -> Bool {
        backends.localAuthentication.makeContext().canEvaluatePolicy(.deviceOwnerAuthentication) == .passcodeNotSet
    }

    /// Why adding a protected item failed.
    func explainAdd(_ status: KeychainStatus) -> BioAuthError {
        if passcodeMissing() { return .passcodeNotSet }
        return StatusMapping.error(for: status)
    }
}
