#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication

/// An `LAContext`, passed through: every call is the LocalAuthentication call of the same name.
///
/// `LAContext` is thread-safe for these calls but not annotated `Sendable`, hence `@unchecked`.
final class AppleAuthenticationContext: AuthenticationContext, @unchecked Sendable {
    let context = LAContext()

    func canEvaluatePolicy(_ policy: AuthenticationPolicy) -> LAErrorCode? {
        var error: NSError?
        guard let laPolicy = LAPolicy(rawValue: policy.rawValue) else { return .biometryNotAvailable }
        if context.canEvaluatePolicy(laPolicy, error: &error) { return nil }
        return LAErrorCode(rawValue: error?.code ?? LAErrorCode.biometryNotAvailable.rawValue)
    }

    func evaluatePolicy(_ policy: AuthenticationPolicy, localizedReason: String) async -> LAErrorCode? {
        guard let laPolicy = LAPolicy(rawValue: policy.rawValue) else { return .biometryNotAvailable }
        let context = self.context
        return await withCheckedContinuation { (continuation: CheckedContinuation<LAErrorCode?, Never>) in
            context.evaluatePolicy(laPolicy, localizedReason: localizedReason) { success, error in
                continuation.resume(
                    returning: success ? nil : LAErrorCode(rawValue: (error as NSError?)?.code ?? LAErrorCode.authenticationFailed.rawValue)
                )
            }
        }
    }

    var evaluatedPolicyDomainState: Data? {
        context.evaluatedPolicyDomainState
    }

    /// `domainState.biometry.stateHash`, iOS 18 and macOS 15. This layer is type-checked against
    /// the iOS 16.5 SDK, which lacks `LADomainState`, so the property is read by its Objective-C
    /// key path.
    var biometryStateHash: Data? {
        guard #available(iOS 18, macOS 15, *) else { return nil }
        return context.value(forKeyPath: "domainState.biometry.stateHash") as? Data
    }

    var biometryType: BiometryKind {
        switch context.biometryType {
        case .faceID: .faceID
        case .touchID: .touchID
        // `.opticID` (iOS 17) is not in the 16.5 SDK this layer is type-checked against:
        // kLABiometryTypeOpticID is 1 << 2 (LAPublicDefines.h).
        default: context.biometryType.rawValue == 4 ? .opticID : .none
        }
    }

    func invalidate() {
        context.invalidate()
    }
}
#endif
