@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// A software phone: passcode, biometric sensor and enrolled identities, keychain, Secure
/// Enclave, a scripted user who answers prompts, and an attacker with the threat model's powers.
///
/// It follows Apple's documented behaviour, so that a flow that passes here holds on a device:
/// - items with `WhenPasscodeSetThisDeviceOnly` are refused without a passcode and all deleted
///   when the passcode is removed;
/// - any enrollment change gives a new domain state and invalidates every `.biometryCurrentSet`
///   item and key (deleted, or kept and failing, as ``EnrollmentChangeBehaviour`` says), while
///   `.biometryAny` ones survive;
/// - a prompt takes attempts until a match, two failed ones, or the fifth failed attempt in a
///   row, which locks biometry until the passcode is entered (``DeviceState/runPrompt(_:)``);
/// - protected items and keys are released only after a real match by an enrolled identity,
///   whatever `evaluatePolicy` told the app;
/// - failures are the raw `OSStatus` / `LAError` codes Apple returns.
///
/// Pass ``backends`` to BioAuthKit.
public final class SimulatedDevice: @unchecked Sendable {
    let state: Locked<DeviceState>
    let lateAnswers = LateAnswers()
    /// The device's App Attest service, when it was given one.
    public let appAttest: SimulatedAppAttest?

    /// A device with a passcode and one enrolled identity by default; with App Attest when
    /// `appAttest` (what makes Apple's objects) is given, else like a platform without it.
    public init(
        biometry: BiometryKind = .faceID,
        passcode: String? = "123456",
        enrolled: Set<String> = ["owner"],
        appAttest: (any AppAttestObjectMaker)? = nil
    ) {
        state = Locked(DeviceState(passcode: passcode, biometryKind: biometry, enrolled: enrolled))
        self.appAttest = appAttest.map(SimulatedAppAttest.init(maker:))
    }

    /// The keychain, Secure Enclave, LocalAuthentication, App Attest and clock of this device, for BioAuthKit.
    public var backends: DeviceBackends {
        let backend = SimulatedBackend(device: self)
        return DeviceBackends(
            keychain: backend,
            secureKeys: backend,
            localAuthentication: backend,
            appAttest: appAttest.map(SimulatedAppAttestBackend.init(service:)),
            clock: backend
        )
    }

    /// The attacker who controls the app process on this device.
    public var attacker: Attacker { Attacker(device: self) }

    // MARK: the owner's settings

    /// Sets (or changes) the device passcode.
    public func setPasscode(_ passcode: String) {
        state.withLock { $0.passcode = passcode }
    }

    /// Removes the passcode: every `WhenPasscodeSetThisDeviceOnly` item and key is deleted.
    public func removePasscode() {
        state.withLock { state in
            state.passcode = nil
            state.items = state.items.filter { $0.value.accessibility != ItemAccessibility.whenPasscodeSetThisDeviceOnly.rawValue }
        }
    }

    /// Enrolls a face or finger (an enrollment change).
    public func enroll(_ identity: String) {
        state.withLock { state in
            guard state.enrolled.insert(identity).inserted else { return }
            state.enrollmentChanged()
        }
    }

    /// Removes an enrolled face or finger (an enrollment change).
    public func unenroll(_ identity: String) {
        state.withLock { state in
            guard state.enrolled.remove(identity) != nil else { return }
            state.enrollmentChanged()
        }
    }

    /// Installs a major OS update: the biometric domain state and iOS 18's state hash change (both
    /// headers warn of it), the enrolled faces and fingers do not, and every item and key keeps
    /// working. LAContext.h (iOS 16.5 SDK) on
    /// `evaluatedPolicyDomainState`: "the value returned by this property can change exceptionally
    /// between major OS versions even if the state of biometry has not changed".
    public func installOSUpdate() {
        state.withLock {
            $0.domainState = DeviceState.randomState()
            $0.stateHash = DeviceState.randomState()
        }
    }

    /// Deletes the app and installs it again: keychain items and Secure Enclave keys stay (they
    /// belong to the device's keychain, `ThisDeviceOnly`), App Attest keys do not
    /// (``SimulatedAppAttest/removeAllKeys()``). A new `BioAuthClient` plays the fresh app.
    public func reinstallApp() {
        appAttest?.removeAllKeys()
    }

    /// Changes the sensor (e.g. `.none` for a device without biometry).
    public func setBiometryKind(_ kind: BiometryKind) {
        state.withLock { $0.biometryKind = kind }
    }

    /// Enters the passcode on the lock screen; a correct one ends a biometry lockout.
    @discardableResult
    public func enterPasscode(_ passcode: String) -> Bool {
        state.withLock { state in
            guard state.passcode == passcode else { return false }
            state.failedMatches = 0
            return true
        }
    }

    /// How `.biometryCurrentSet` items and keys answer after the next enrollment changes
    /// (``EnrollmentChangeBehaviour``; by default they are deleted).
    @_spi(DeviceSeam) public func setEnrollmentChangeBehaviour(_ behaviour: EnrollmentChangeBehaviour) {
        state.withLock { $0.enrollmentChangeBehaviour = behaviour }
    }

    /// How many failed attempts one prompt allows before the call fails (2 by default: LAContext.h
    /// describes Face ID's "Try Face ID Again" after the first failure and only "Cancel" and "Enter
    /// Password" after the second; it gives no number for Touch ID, whose fallback button "shows
    /// up after first unsuccessful Touch ID attempt").
    public func setAttemptsPerPrompt(_ attempts: Int) {
        state.withLock { $0.attemptsPerPrompt = max(1, attempts) }
    }

    /// Whether `LAContext.invalidate()` closes a prompt that a keychain or Secure Enclave call
    /// shows on the context (by default it does). LAContext.h promises only that "Invalidation
    /// terminates any existing policy evaluation"; `false` plays a device where such a prompt
    /// stays up until the user answers it (``answerPromptLeftUp(_:)``), while the call still
    /// blocks its thread.
    public func setInvalidateClosesKeychainPrompts(_ closes: Bool) {
        state.withLock { $0.invalidateClosesKeychainPrompts = closes }
    }

    /// The user answers a prompt that stayed up after the app invalidated its context
    /// (``setInvalidateClosesKeychainPrompts(_:)``): one attempt, which ends it.
    public func answerPromptLeftUp(_ answer: ScriptedAnswer) {
        lateAnswers.give(answer)
    }

    /// Whether the OS has `LAContext.domainState` (iOS 18, macOS 15: `domainState.biometry.stateHash`,
    /// LADomainState.h); `false` plays an earlier OS, where only `evaluatedPolicyDomainState` exists.
    public func setHasDomainStateAPI(_ has: Bool) {
        state.withLock { $0.hasDomainStateAPI = has }
    }

    /// Plays a device without a Secure Enclave (the Xcode Simulator, a Mac without one):
    /// `SecureEnclave.isAvailable` is false and a Secure Enclave key cannot be made.
    public func setHasSecureEnclave(_ has: Bool) {
        state.withLock { $0.hasSecureEnclave = has }
    }

    /// Moves the device's monotonic clock forward: time passes for the deadlines the client keeps
    /// (an access token's), while the device's date and the server's clock stay as they are.
    public func advanceClock(by seconds: Double) {
        state.withLock { $0.clock += seconds }
    }

    /// Simulates a build without the keychain entitlement (every call answers -34018).
    public func setEntitlementMissing(_ missing: Bool) {
        state.withLock { $0.entitlementMissing = missing }
    }

    // MARK: the scripted user

    /// Queues the user's answers to the next prompts, in order.
    public func willAnswer(_ answers: ScriptedAnswer...) {
        state.withLock { $0.answers.append(contentsOf: answers) }
    }

    /// How many prompts have been shown.
    public var promptCount: Int { state.withLock { $0.prompts.count } }

    /// The text of every prompt shown, in order.
    public var promptReasons: [String] { state.withLock { $0.prompts } }

    /// Prompts shown with no scripted answer left (each was canceled).
    public var unansweredPromptCount: Int { state.withLock { $0.unansweredPrompts } }

    /// Prompts left up (``ScriptedAnswer/leaveUp``) that the app has not closed yet.
    public var openPromptCount: Int { state.withLock { $0.openPrompts } }

    /// Scripted answers not yet used.
    public var pendingAnswerCount: Int { state.withLock { $0.answers.count } }

    /// Failed attempts since the last match or passcode: what the lockout counts (not prompts).
    public var failedAttemptCount: Int { state.withLock { $0.failedMatches } }

    /// Whether biometry is locked after too many failed matches.
    public var isBiometryLockedOut: Bool { state.withLock { $0.isLockedOut } }

    /// How many items and keys the keychain holds (any class, any protection).
    public var storedItemCount: Int { state.withLock { $0.items.count } }
}
