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
    var failedMatches = 0
    var items: [ItemID: SimulatedItem] = [:]
    var answers: [ScriptedAnswer] = []
    var prompts: [String] = []
    var unansweredPrompts = 0
    /// Prompts left up (``ScriptedAnswer/leaveUp``) and not yet closed.
    var openPrompts = 0
    var evaluatePolicyHooked = false
    var entitlementMissing = false
    var hasSecureEnclave = true

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
        }
    }

    /// The user's next answer; an unscripted prompt is canceled and counted.
    mutating func nextAnswer(prompt: String) -> ScriptedAnswer {
        prompts.append(prompt)
        guard !answers.isEmpty else {
            unansweredPrompts += 1
            return .cancel
        }
        return answers.removeFirst()
    }
}
