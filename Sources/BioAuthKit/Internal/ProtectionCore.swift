import Foundation

/// The decisions shared by the vault and the key store: contexts, preflight checks, the
/// enrollment baseline, and turning a raw status into the most precise ``BioAuthError``.
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

    /// Fails unless `policy` can be evaluated now (sensor present, enrolled, not locked, passcode set).
    func preflight(_ policy: BiometricPolicy) throws(BioAuthError) {
        let context = backends.localAuthentication.makeContext()
        if let code = context.canEvaluatePolicy(policy.localAuthenticationPolicy) {
            throw StatusMapping.error(for: code)
        }
        // Protected items need a passcode even when the policy is biometry only.
        if let code = context.canEvaluatePolicy(.deviceOwnerAuthentication), code == .passcodeNotSet {
            throw .passcodeNotSet
        }
    }

    /// The current domain state, or `nil` with `comparable == false` when it cannot be known now
    /// (for instance during a lockout, when LocalAuthentication withholds it).
    func currentDomainState() -> (state: Data?, comparable: Bool) {
        let context = backends.localAuthentication.makeContext()
        switch context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics) {
        case nil: return (context.evaluatedPolicyDomainState, true)
        case .biometryNotEnrolled?: return (nil, true)  // every finger/face removed: a change too
        default: return (nil, false)
        }
    }

    /// Whether the enrolled biometry differs from the baseline recorded for the item (never prompts).
    ///
    /// Only an explanation: the domain state "can change exceptionally between major OS versions
    /// even if the state of biometry has not changed" (LAContext.h, `evaluatedPolicyDomainState`),
    /// so it never decides on its own that a key is gone. The key
    /// is tried first; this says why it failed.
    func enrollmentChanged(_ kind: Kind, _ name: String) -> Bool {
        guard let record = record(kind, name), record.policy == .currentBiometrics, let baseline = record.baseline else { return false }
        let now = currentDomainState()
        return now.comparable && now.state != baseline
    }

    /// After the item or key was used successfully: a `.biometryCurrentSet` item that still works
    /// proves the enrolled set did not change, so a moved domain state (an OS update) becomes the
    /// new baseline.
    func confirmBaseline(_ kind: Kind, _ name: String) {
        guard var record = record(kind, name), record.policy == .currentBiometrics else { return }
        let now = currentDomainState()
        guard now.comparable, let state = now.state, state != record.baseline else { return }
        record.baseline = state
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
        ItemRecord(policy: policy, baseline: policy == .currentBiometrics ? currentDomainState().state : nil)
    }

    // MARK: explaining failures

    /// The most precise error for a failed operation on a protected item or key.
    ///
    /// The status is first mapped by its domain and code (``StatusMapping``); then a missing or
    /// refused item is explained: ``BioAuthError/biometryChanged`` when the domain state moved away
    /// from the baseline, ``BioAuthError/passcodeNotSet`` when the passcode was removed (which
    /// deleted the item), lockout / not enrolled / not available when LocalAuthentication says so.
    func explain(_ status: KeychainStatus, _ kind: Kind, _ name: String) -> BioAuthError {
        let error = StatusMapping.error(for: status)
        // Whichever of the two an invalidated item or key answers on a given OS version, a
        // domain state that moved away from the baseline is the cause.
        if error == .itemNotFound || error == .authenticationFailed, enrollmentChanged(kind, name) { return .biometryChanged }
        switch error {
        case .itemNotFound:
            return passcodeMissing() ? .passcodeNotSet : .itemNotFound
        case .authenticationFailed:
            guard let policy = record(kind, name).map({ $0.policy }) ?? .currentBiometrics else { return .authenticationFailed }
            let context = backends.localAuthentication.makeContext()
            switch context.canEvaluatePolicy(policy.localAuthenticationPolicy) {
            case .biometryLockout?: return .biometryLockout
            case .biometryNotEnrolled?: return .biometryNotEnrolled
            case .biometryNotAvailable?: return .biometryNotAvailable
            case .passcodeNotSet?: return .passcodeNotSet
            default: return .authenticationFailed
            }
        default:
            return error
        }
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
