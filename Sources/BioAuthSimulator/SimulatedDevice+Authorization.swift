@_spi(DeviceSeam) import BioAuthKit
import Foundation

extension SimulatedDevice {
    /// The hardware's access check for a protected item or key: reuse an authenticated context,
    /// or prompt and let the scripted user answer. Called with the device state locked.
    static func authorize(
        _ flagsValue: UInt?,
        context: SimulatedContext?,
        interactionNotAllowed: Bool,
        prompt: String?,
        state: inout DeviceState
    ) -> KeychainStatus {
        let flags = AccessControlFlags(rawValue: flagsValue ?? 0)
        guard flags.involvesBiometry || flags.allowsPasscode else { return .success }
        if let context {
            if context.isInvalidated { return .authFailed }
            if context.satisfies(flags, generation: state.generation) { return .success }
        }
        if interactionNotAllowed { return .interactionNotAllowed }
        // No prompt can succeed: the system does not show one.
        guard state.biometryUsable || (flags.allowsPasscode && state.passcode != nil) else { return .authFailed }
        switch state.nextAnswer(prompt: prompt ?? "") {
        case .present(let identity):
            guard state.biometryUsable else { return .authFailed }
            guard state.enrolled.contains(identity) else {
                state.failedMatches += 1
                return .authFailed
            }
            state.failedMatches = 0
            context?.recordMatch(generation: state.generation)
            return .success
        case .presentUnenrolled:
            if state.biometryUsable { state.failedMatches += 1 }
            return .authFailed
        case .cancel:
            return .userCanceled
        case .leaveUp:
            state.openPrompts += 1
            return promptLeftUp
        case .passcode(let passcode):
            guard passcode == state.passcode else { return .authFailed }
            state.failedMatches = 0
            guard flags.allowsPasscode else { return .authFailed }
            context?.recordPasscode()
            return .success
        }
    }

    /// What ``authorize(_:context:interactionNotAllowed:prompt:state:)`` answers for a prompt left
    /// up: the caller waits, without the device's lock, in ``closeWhenInvalidated(_:)``.
    static let promptLeftUp = KeychainStatus(domain: KeychainStatus.Domain(rawValue: "simulator"), code: 1)

    /// Blocks until the app invalidates the context of a prompt left up, then closes it: the call
    /// fails with `LAErrorAppCancel`. A prompt the app never closes is closed by the system after
    /// five seconds (`LAErrorSystemCancel`, "authentication was canceled by system", LAError.h),
    /// so that an app that cannot cancel is seen to fail rather than hang; one without a context
    /// is closed at once.
    func closeWhenInvalidated(_ context: SimulatedContext?) -> KeychainStatus {
        let invalidated = context?.waitUntilInvalidated(at: .seconds(5)) ?? false
        state.withLock { $0.openPrompts -= 1 }
        return .localAuthentication(invalidated ? .appCancel : .systemCancel)
    }

    /// `evaluatePolicy` on `context`.
    func evaluate(_ policy: AuthenticationPolicy, reason: String, context: SimulatedContext) -> LAErrorCode? {
        state.withLock { state in
            // The attacker's hook answers "success" to the app; the hardware never saw a match.
            if state.evaluatePolicyHooked { return nil }
            if let code = SimulatedContext.canEvaluate(policy, on: state) { return code }
            switch state.nextAnswer(prompt: reason) {
            case .present(let identity):
                guard state.enrolled.contains(identity) else {
                    state.failedMatches += 1
                    return .authenticationFailed
                }
                state.failedMatches = 0
                context.recordMatch(generation: state.generation)
                return nil
            case .presentUnenrolled:
                state.failedMatches += 1
                return .authenticationFailed
            case .cancel, .leaveUp:
                return .userCancel
            case .passcode(let passcode):
                guard passcode == state.passcode else { return .authenticationFailed }
                state.failedMatches = 0
                guard policy == .deviceOwnerAuthentication else { return .userFallback }
                context.recordPasscode()
                return nil
            }
        }
    }

    /// The checks `SecItemAdd` and `SecKeyCreateRandomKey` make before storing anything.
    static func admissionStatus(_ query: KeychainQuery, state: DeviceState) -> KeychainStatus {
        if state.entitlementMissing { return .missingEntitlement }
        if query.accessibility == .whenPasscodeSetThisDeviceOnly, state.passcode == nil { return .authFailed }
        if let flags = query.accessControl, flags.involvesBiometry, !flags.allowsPasscode,
            state.biometryKind == .none || state.enrolled.isEmpty
        {
            return .authFailed
        }
        return .success
    }
}
