@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// Everything the simulated phone knows.
struct DeviceState: Sendable {
    var passcode: String?
    var biometryKind: BiometryKind
    var enrolled: Set<String>
    /// Bumped on every change of the enrolled set; contexts remember the generation they matched in.
    var generation = 0
    var domainState = DeviceState.randomState()
    /// iOS 18's `domainState.biometry.stateHash`; changes with the enrolled set and a major OS update.
    var stateHash = DeviceState.randomState()
    /// Whether the OS has `LAContext.domainState` (iOS 18, macOS 15).
    var hasDomainStateAPI = true
    var enrollmentChangeBehaviour = EnrollmentChangeBehaviour.deletesItems
    /// Failed attempts since the last match or passcode: every face or finger that did not
    /// match, however many each prompt took.
    var failedMatches = 0
    /// Failed attempts one prompt allows before it fails (``SimulatedDevice/setAttemptsPerPrompt(_:)``).
    var attemptsPerPrompt = 2
    /// Whether invalidating a context closes a keychain or Secure Enclave prompt left up on it
    /// (``SimulatedDevice/setInvalidateClosesKeychainPrompts(_:)``).
    var invalidateClosesKeychainPrompts = true
    var items: [ItemID: SimulatedItem] = [:]
    var answers: [ScriptedAnswer] = []
    var prompts: [String] = []
    var unansweredPrompts = 0
    /// Prompts left up (``ScriptedAnswer/leaveUp``) and not yet closed.
    var openPrompts = 0
    var evaluatePolicyHooked = false
    var entitlementMissing = false
    var hasSecureEnclave = true
    /// The device's monotonic clock (``SimulatedDevice/advanceClock(by:)``), in seconds.
    var clock: Double = 1_000

    static let lockoutThreshold = 5

    var isLockedOut: Bool { failedMatches >= Self.lockoutThreshold }

    /// Biometry that could match right now.
    var biometryUsable: Bool {
        biometryKind != .none && !enrolled.isEmpty && passcode != nil && !isLockedOut
    }

    static func randomState() -> Data {
        Data((0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// A new enrolled set: new domain state and state hash; every `.biometryCurrentSet` item and
    /// key is gone or invalidated, as ``enrollmentChangeBehaviour`` says.
    mutating func enrollmentChanged() {
        generation += 1
        domainState = Self.randomState()
        stateHash = Self.randomState()
        let bound = { (item: SimulatedItem) in (item.accessControl ?? 0) & AccessControlFlags.biometryCurrentSet.rawValue != 0 }
        switch enrollmentChangeBehaviour {
        case .deletesItems:
            items = items.filter { !bound($0.value) }
        case .invalidatesItems(let failure):
            for (id, item) in items where bound(item) { items[id]?.invalidation = failure }
        case .invalidatesItemsAnsweringNeedsUI(let failure):
            for (id, item) in items where bound(item) {
                items[id]?.invalidation = failure
                items[id]?.invalidationAsksForUI = true
            }
        }
    }

    /// How a prompt ended.
    enum PromptEnd: Equatable {
        case matched
        /// As many failed attempts as one prompt allows.
        case failed
        /// A failed attempt reached the lockout.
        case lockedOut
        case canceled
        case leftUp
        case passcode(String)
    }

    /// Shows a prompt and lets the scripted user answer it, attempt by attempt. LAContext.h
    /// (iOS 16.5 SDK), `LAPolicyDeviceOwnerAuthenticationWithBiometrics`: "If the first attempt
    /// fails, then LocalAuthentication will show a dialog with two buttons: "Cancel" and "Try Face
    /// ID Again". After second failure, the buttons are "Cancel" and "Enter Password"", and
    /// "Biometric authentication will get locked after 5 unsuccessful attempts". So a face or
    /// finger that does not match is one failed attempt and the prompt stays up for the next
    /// answer, until ``attemptsPerPrompt`` failed attempts end it (the call then fails) or the
    /// lockout does; every attempt counts toward the lockout. With no answer left the user
    /// cancels (counted in ``unansweredPrompts``).
    mutating func runPrompt(_ reason: String) -> PromptEnd {
        prompts.append(reason)
        var failedAttempts = 0
        while true {
            let answer: ScriptedAnswer
            if answers.isEmpty {
                unansweredPrompts += 1
                answer = .cancel
            } else {
                answer = answers.removeFirst()
            }
            switch answer {
            case .present(let identity) where biometryUsable && enrolled.contains(identity):
                failedMatches = 0
                return .matched
            case .present, .presentUnenrolled:
                guard biometryUsable else { return .failed }
                failedMatches += 1
                failedAttempts += 1
                if isLockedOut { return .lockedOut }
                if failedAttempts >= attemptsPerPrompt { return .failed }
            case .cancel:
                return .canceled
            case .leaveUp:
                return .leftUp
            case .passcode(let passcode):
                return .passcode(passcode)
            }
        }
    }
}
