import Foundation

/// One `LAContext`: an authentication that keychain operations can use (and reuse).
///
/// A context that has not been evaluated makes the first protected operation prompt; one that a
/// real match has authenticated lets later operations on the same context proceed without a
/// second prompt. Only the secure hardware knows whether a match happened: an app (or a hook)
/// seeing `evaluatePolicy` return success proves nothing to the keychain.
@_spi(DeviceSeam) public protocol AuthenticationContext: AnyObject, Sendable {
    /// `canEvaluatePolicy(_:error:)`: `nil` when the policy can be evaluated, else the `LAError` code.
    func canEvaluatePolicy(_ policy: AuthenticationPolicy) -> LAErrorCode?
    /// `evaluatePolicy(_:localizedReason:)`: `nil` on success, else the `LAError` code.
    func evaluatePolicy(_ policy: AuthenticationPolicy, localizedReason: String) async -> LAErrorCode?
    /// `evaluatedPolicyDomainState`: an opaque value that changes whenever the enrolled biometry
    /// changes; `nil` until a biometric policy was (can-)evaluated on this context.
    var evaluatedPolicyDomainState: Data? { get }
    /// `domainState.biometry.stateHash` (iOS 18, macOS 15), which replaces
    /// ``evaluatedPolicyDomainState`` there: it changes when the enrolled biometry changes (and,
    /// LADomainState.h warns, exceptionally across major OS versions); `nil` on an earlier OS, or
    /// until a biometric policy was (can-)evaluated on this context.
    var biometryStateHash: Data? { get }
    /// `biometryType`.
    var biometryType: BiometryKind { get }
    /// `invalidate()`: the context can no longer authenticate anything.
    func invalidate()
}
