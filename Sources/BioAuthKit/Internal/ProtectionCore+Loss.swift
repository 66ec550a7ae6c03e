import Foundation

/// What an item or key answers to a call that may not show UI: the one witness of its state that
/// needs no prompt (``ProtectionCore/loss(_:_:_:)`` reads it).
enum ProbeAnswer: Equatable, Sendable {
    /// It answered, or it wants UI: a sound item's answer ("the keychain call will eventually fail
    /// with errSecInteractionNotAllowed instead of displaying the authentication UI", LAContext.h,
    /// `interactionNotAllowed`). An invalidated one may answer so too: Apple does not say.
    case needsUI
    /// It is not there.
    case missing
    /// It failed without asking for UI, with this status.
    case refused(KeychainStatus)
}

/// When an item or key counts as lost, and the error a failure becomes.
///
/// Apple documents one cause of loss, besides deletion: "When fingers are added or removed, the
/// item is invalidated. When Face ID is re-enrolled this item is invalidated" (SecAccessControl.h,
/// `kSecAccessControlBiometryCurrentSet`), and not how an invalidated item answers. The domain
/// state moves with every enrollment change and also "exceptionally between major OS versions even
/// if the state of biometry has not changed" (LAContext.h, `evaluatedPolicyDomainState`), so it
/// only ever explains. Loss is decided by:
/// - the item itself: gone, or refusing a call that may not show UI (``ProbeAnswer``) while the
///   domain state has moved; or refusing a context a real match has just authenticated
///   (``matchFirst(_:_:context:prompt:probe:)``);
/// - no identity enrolled at all.
///
/// A failed match, a cancel, a lockout, a system failure or a refused interaction on the prompt
/// itself is never loss.
extension ProtectionCore {
    /// Failures that are the user's answer, the device's state or the build's, never an item's.
    static let notAnInvalidation: Set<BioAuthError.Code> = [
        .userCanceled, .biometryLockout, .interactionNotAllowed, .passcodeNotSet, .missingEntitlement,
    ]

    /// Whether `answer`, the item's own answer to a call that may not show UI, means it is lost.
    func loss(_ answer: ProbeAnswer, _ kind: Kind, _ name: String) -> LocalKeyLoss? {
        let change = enrollmentChange(kind, name)
        switch answer {
        case .needsUI:
            return change == .certain ? .biometryChanged : nil
        case .missing:
            return change == .none ? .keyMissing : .biometryChanged
        case .refused(let status):
            let error = StatusMapping.error(for: status)
            if error == .itemNotFound { return loss(.missing, kind, name) }
            if Self.notAnInvalidation.contains(error.code) { return nil }
            // Without a moved domain state nothing invalidated it: some other failure, the key stays.
            return change == .none ? nil : .biometryChanged
        }
    }

    /// The error for a lost item.
    func error(for loss: LocalKeyLoss) -> BioAuthError {
        switch loss {
        case .biometryChanged: .biometryChanged
        case .keyMissing: passcodeMissing() ? .passcodeNotSet : .itemNotFound
        }
    }

    /// The most precise error for a failed use of an item or key on a prompt: the status mapped by
    /// its domain and code (``StatusMapping``); ``BioAuthError/biometryChanged`` or
    /// ``BioAuthError/itemNotFound`` only when the item itself says it is lost (`probe`, asked only
    /// when the domain state moved) or is gone; lockout, not enrolled, not available when
    /// LocalAuthentication explains a refusal.
    func explain(_ status: KeychainStatus, _ kind: Kind, _ name: String, probe: () -> ProbeAnswer) -> BioAuthError {
        let error = StatusMapping.error(for: status)
        if Self.notAnInvalidation.contains(error.code) { return error }
        if error == .itemNotFound { return self.error(for: loss(.missing, kind, name) ?? .keyMissing) }
        if enrollmentChange(kind, name) != .none, let loss = loss(probe(), kind, name) { return self.error(for: loss) }
        guard error == .authenticationFailed else { return error }
        let policy = record(kind, name).map { $0.policy } ?? .currentBiometrics
        guard let policy else { return .authenticationFailed }
        switch backends.localAuthentication.makeContext().canEvaluatePolicy(policy.localAuthenticationPolicy) {
        case .biometryLockout?: return .biometryLockout
        case .biometryNotEnrolled?: return .biometryNotEnrolled
        case .biometryNotAvailable?: return .biometryNotAvailable
        case .passcodeNotSet?: return .passcodeNotSet
        default: return .authenticationFailed
        }
    }

    /// Before a use on a fresh `context` while the domain state has moved with no proof of an
    /// enrollment change (an OS update, or a change on a device whose invalidated items answer
    /// "needs UI" like sound ones): asks the item without UI first (`probe`; a lost one fails
    /// here, with no prompt), then has the user match on `context` (`evaluatePolicy`: the one
    /// prompt; its failure is the user's answer, never loss), so that the use itself needs no
    /// further match: "If the specified context has been previously authenticated, the operation
    /// will succeed without asking user for authentication" (SecItem.h,
    /// `kSecUseAuthenticationContext`). An item that then fails refused a real match of the
    /// enrolled set: ``explainAfterMatch(_:)``.
    ///
    /// - Returns: Whether it did so (the caller then explains a failure with ``explainAfterMatch(_:)``).
    func matchFirst(
        _ kind: Kind,
        _ name: String,
        context: (any AuthenticationContext)?,
        prompt: String,
        probe: () -> ProbeAnswer
    ) async throws(BioAuthError) -> Bool {
        guard let context, enrollmentChange(kind, name) == .possible else { return false }
        if let loss = loss(probe(), kind, name) { throw error(for: loss) }
        let policy = (record(kind, name)?.policy ?? .currentBiometrics).localAuthenticationPolicy
        let code = await withTaskCancellationHandler {
            await context.evaluatePolicy(policy, localizedReason: prompt)
        } onCancel: {
            // "Invalidation terminates any existing policy evaluation and the respective call will
            // fail with LAErrorAppCancel" (LAContext.h, `invalidate`).
            context.invalidate()
        }
        if let code { throw StatusMapping.error(for: code) }
        return true
    }

    /// A failed use on a context a real match authenticated (``matchFirst(_:_:context:prompt:probe:)``):
    /// the item refused the enrolled set, so it was invalidated; a cancel (the task's, or a prompt
    /// the device showed after all) and the build's own failures stay what they are.
    func explainAfterMatch(_ status: KeychainStatus) -> BioAuthError {
        let error = StatusMapping.error(for: status)
        return [.userCanceled, .missingEntitlement, .passcodeNotSet].contains(error.code) ? error : .biometryChanged
    }
}
