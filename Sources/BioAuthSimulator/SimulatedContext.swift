@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// A simulated `LAContext`.
///
/// Whether it is authenticated is known only to the simulated hardware: a hooked
/// `evaluatePolicy` reports success to the app but leaves the context unauthenticated, so the
/// keychain still demands a real match.
final class SimulatedContext: AuthenticationContext, @unchecked Sendable {
    struct State {
        /// The enrollment generation of a real biometric match on this context.
        var matchedGeneration: Int?
        /// A correct passcode was entered on this context.
        var passcodeEntered = false
        var domainVisible = false
        var invalidated = false
    }

    let device: SimulatedDevice
    let state = Locked(State())
    /// Signalled once, by ``invalidate()``.
    private let invalidation = DispatchSemaphore(value: 0)

    init(device: SimulatedDevice) {
        self.device = device
    }

    /// Whether a real match (or the passcode, where `flags` allow it) authenticated this context.
    func satisfies(_ flags: AccessControlFlags, generation: Int) -> Bool {
        state.withLock { state in
            guard !state.invalidated else { return false }
            if let matched = state.matchedGeneration {
                if flags.contains(.biometryCurrentSet) { return matched == generation }
                return true
            }
            return state.passcodeEntered && flags.allowsPasscode
        }
    }

    /// Whether `invalidate()` was called.
    var isInvalidated: Bool { state.withLock { $0.invalidated } }

    func recordMatch(generation: Int) {
        state.withLock {
            $0.matchedGeneration = generation
            $0.domainVisible = true
        }
    }

    func recordPasscode() {
        state.withLock { $0.passcodeEntered = true }
    }

    /// `canEvaluatePolicy(_:error:)`.
    func canEvaluatePolicy(_ policy: AuthenticationPolicy) -> LAErrorCode? {
        let answer = device.state.withLock { SimulatedContext.canEvaluate(policy, on: $0) }
        if answer == nil { state.withLock { $0.domainVisible = true } }
        return answer
    }

    static func canEvaluate(_ policy: AuthenticationPolicy, on device: DeviceState) -> LAErrorCode? {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics:
            if device.biometryKind == .none { return .biometryNotAvailable }
            if device.passcode == nil { return .passcodeNotSet }
            if device.enrolled.isEmpty { return .biometryNotEnrolled }
            if device.isLockedOut { return .biometryLockout }
            return nil
        case .deviceOwnerAuthentication:
            return device.passcode == nil ? .passcodeNotSet : nil
        }
    }

    /// `evaluatePolicy(_:localizedReason:)`, answered by the scripted user (or by the attacker's hook).
    func evaluatePolicy(_ policy: AuthenticationPolicy, localizedReason: String) async -> LAErrorCode? {
        if isInvalidated { return .invalidContext }
        let (answer, leftUp) = device.evaluate(policy, reason: localizedReason, context: self)
        guard leftUp else { return answer }
        // The platform answers on a thread of its own; a cooperative thread is never blocked.
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.device.closeEvaluation(self)) }.start()
        }
    }

    /// `evaluatedPolicyDomainState`: visible once a biometric policy was (can-)evaluated.
    var evaluatedPolicyDomainState: Data? {
        guard state.withLock({ $0.domainVisible }) else { return nil }
        return device.state.withLock { $0.biometryKind == .none || $0.enrolled.isEmpty ? nil : $0.domainState }
    }

    /// `domainState.biometry.stateHash` (iOS 18, macOS 15): visible as the domain state is, on an
    /// OS that has it.
    var biometryStateHash: Data? {
        guard state.withLock({ $0.domainVisible }) else { return nil }
        return device.state.withLock { !$0.hasDomainStateAPI || $0.biometryKind == .none || $0.enrolled.isEmpty ? nil : $0.stateHash }
    }

    /// `biometryType`.
    var biometryType: BiometryKind { device.state.withLock { $0.biometryKind } }

    /// `invalidate()`: also closes a prompt left up on this context.
    func invalidate() {
        let first = state.withLock { state in
            defer {
                state.invalidated = true
                state.matchedGeneration = nil
                state.passcodeEntered = false
            }
            return !state.invalidated
        }
        if first { invalidation.signal() }
    }

    /// Blocks the calling thread until ``invalidate()``, or for `limit` at most; whether it was invalidated.
    func waitUntilInvalidated(at limit: DispatchTimeInterval) -> Bool {
        guard invalidation.wait(timeout: .now() + limit) == .success else { return false }
        invalidation.signal()
        return true
    }
}
