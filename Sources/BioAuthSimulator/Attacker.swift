import BioAuthKit
import Foundation

/// The threat model's attacker: controls the app process on a jailbroken device (hooks any
/// callback, reads app storage) and replays network traffic. What it cannot do is make the
/// simulated secure hardware release a protected item or key without a real match.
public struct Attacker: Sendable {
    let device: SimulatedDevice

    /// Hooks `LAContext.evaluatePolicy` (Frida/Objection style): from now on it reports success
    /// to the app without any match.
    public func hookEvaluatePolicy() {
        device.state.withLock { $0.evaluatePolicyHooked = true }
    }

    /// Everything the attacker can read from the app's storage: the data of every item not
    /// protected by access control. Protected items and Secure Enclave keys yield nothing (on a
    /// device their contents are encrypted under keys the Secure Enclave holds).
    public func readAppStorage() -> [Data] {
        device.state.withLock { state in
            state.items.values.compactMap { item in item.accessControl == nil ? item.data : nil }
        }
    }

    /// Whether any byte sequence the attacker can read from storage contains `needle`.
    public func storageContains(_ needle: Data) -> Bool {
        readAppStorage().contains { $0.range(of: needle) != nil }
    }
}
