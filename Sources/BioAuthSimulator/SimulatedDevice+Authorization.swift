@_spi(DeviceSeam) import BioAuthKit
import Foundation

extension SimulatedDevice {
    /// The hardware's access check for using a protected item or key: reuse an authenticated
    /// context, or prompt and let the scripted user answer. An item an enrollment change
    /// invalidated fails as ``EnrollmentChangeBehaviour`` says (`invalidated` is then true, and the
    /// status is the item's failure, as the device reports it). Called with the device state locked.
    static func checkUse(
        _ item: SimulatedItem,
        context: SimulatedContext?,
        interactionNotAllowed: Bool,
        prompt: String?,
        state: inout DeviceState
    ) -> (status: KeychainStatus, invalidated: Bool) {
        guard let failure = item.invalidation else {
            let status = authorize(item.accessControl, context: context, interactionNotAllowed: interactionNotAllowed, prompt: prompt, state: &state)
            return (status, false)
        }
        guard item.invalidationAsksForUI else { return (failure, true) }
        if interactionNotAllowed { return (.interactionNotAllowed, false) }
        let status = authorize(item.accessControl, context: context, interactionNotAllowed: false, prompt: prompt, state: &state)
        return status == .success ? (failure, true) : (status, false)
    }

    /// The hardware's access check for a protected item or key: reuse an authenticated context,
    /// or prompt and let the scripted user answer (``DeviceState/runPrompt(_:)``). Called with the
    /// device state locked.
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
        switch state.runPrompt(prompt ?? "") {
        case .matched:
            context?.recordMatch(generation: state.generation)
            return .success
        case .failed, .lockedOut:
            return .authFailed
        case .canceled:
            return .userCanceled
        case .leftUp:
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

    /// How a prompt left up ended.
    enum PromptClose {
        /// Closed, and the call fails with this status.
        case closed(KeychainStatus)
        /// It stayed up after the app invalidated its context, and the user answered it later.
        case answeredLate(ScriptedAnswer)
    }

    /// Blocks until the app invalidates the context of a prompt left up, then closes it: the call
    /// fails with `LAErrorAppCancel`, as `invalidate` promises for a policy evaluation ("Invalidation
    /// terminates any existing policy evaluation and the respective call will fail with
    /// LAErrorAppCancel", LAContext.h). LAContext.h does not promise it of a prompt that a keychain
    /// or Secure Enclave call shows: on a device set so
    /// (``setInvalidateClosesKeychainPrompts(_:)``), the prompt stays up after the invalidation
    /// until the user answers it (``answerPromptLeftUp(_:)``). A prompt nobody closes or answers is
    /// closed by the system after five seconds (`LAErrorSystemCancel`, "authentication was
    /// canceled by system", LAError.h), so that an app that cannot cancel is seen to fail rather
    /// than hang; one without a context is closed at once.
    func closeWhenInvalidated(_ context: SimulatedContext?) -> PromptClose {
        let invalidated = context?.waitUntilInvalidated(at: .seconds(5)) ?? false
        defer { state.withLock { $0.openPrompts -= 1 } }
        guard invalidated, !state.withLock({ $0.invalidateClosesKeychainPrompts }) else {
            return .closed(.localAuthentication(invalidated ? .appCancel : .systemCancel))
        }
        guard let late = lateAnswers.next(within: .seconds(5)) else { return .closed(.localAuthentication(.systemCancel)) }
        return .answeredLate(late)
    }

    /// The status of a prompt that stayed up and got `answer` late. No header describes a prompt
    /// that outlives its context; the simulator takes the answer as one attempt that ends it (a
    /// match succeeds, any other face or finger fails and counts toward the lockout, as in
    /// ``DeviceState/runPrompt(_:)``), the worst case for the app: a real result arriving after
    /// the call was reported canceled.
    static func lateOutcome(_ answer: ScriptedAnswer, flags flagsValue: UInt?, state: inout DeviceState) -> KeychainStatus {
        let flags = AccessControlFlags(rawValue: flagsValue ?? 0)
        switch answer {
        case .present(let identity) where state.biometryUsable && state.enrolled.contains(identity):
            state.failedMatches = 0
            return .success
        case .present, .presentUnenrolled:
            if state.biometryUsable { state.failedMatches += 1 }
            return .authFailed
        case .passcode(let passcode):
            return passcode == state.passcode && flags.allowsPasscode ? .success : .authFailed
        case .cancel, .leaveUp:
            return .userCanceled
        }
    }

    /// `evaluatePolicy` on `context`: the answer, or `nil` in `answer` for success; `leftUp` when
    /// the user leaves the prompt up (the caller then waits for ``closeEvaluation(_:)``).
    func evaluate(_ policy: AuthenticationPolicy, reason: String, context: SimulatedContext) -> (answer: LAErrorCode?, leftUp: Bool) {
        state.withLock { state in
            // The attacker's hook answers "success" to the app; the hardware never saw a match.
            if state.evaluatePolicyHooked { return (nil, false) }
            if let code = SimulatedContext.canEvaluate(policy, on: state) { return (code, false) }
            switch state.runPrompt(reason) {
            case .matched:
                context.recordMatch(generation: state.generation)
                return (nil, false)
            case .failed, .lockedOut:
                return (.authenticationFailed, false)
            case .canceled:
                return (.userCancel, false)
            case .leftUp:
                state.openPrompts += 1
                return (nil, true)
            case .passcode(let passcode):
                guard passcode == state.passcode else { return (.authenticationFailed, false) }
                state.failedMatches = 0
                guard policy == .deviceOwnerAuthentication else { return (.userFallback, false) }
                context.recordPasscode()
                return (nil, false)
            }
        }
    }

    /// Blocks until the app invalidates the context of a policy evaluation left up: "Invalidation
    /// terminates any existing policy evaluation and the respective call will fail with
    /// LAErrorAppCancel" (LAContext.h, `invalidate`); after five seconds the system closes it
    /// (`LAErrorSystemCancel`).
    func closeEvaluation(_ context: SimulatedContext) -> LAErrorCode {
        let invalidated = context.waitUntilInvalidated(at: .seconds(5))
        state.withLock { $0.openPrompts -= 1 }
        return invalidated ? .appCancel : .systemCancel
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
