@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import Testing

/// One way a device may report an enrollment change, on an OS with or without iOS 18's state hash:
/// the cases BioAuthKit must recognise alike.
struct DeviceReport: Sendable, CustomTestStringConvertible {
    var behaviour: EnrollmentChangeBehaviour
    var hasDomainStateAPI: Bool

    /// Every ``EnrollmentChangeBehaviour/all``, on iOS 18 and on an earlier OS.
    static let all: [DeviceReport] = EnrollmentChangeBehaviour.all.flatMap { behaviour in
        [true, false].map { DeviceReport(behaviour: behaviour, hasDomainStateAPI: $0) }
    }

    /// Every ``EnrollmentChangeBehaviour/answeringNeedsUI``, on iOS 18 and on an earlier OS.
    static let answeringNeedsUI: [DeviceReport] = EnrollmentChangeBehaviour.answeringNeedsUI.flatMap { behaviour in
        [true, false].map { DeviceReport(behaviour: behaviour, hasDomainStateAPI: $0) }
    }

    /// Sets `device` up to report this way.
    func apply(to device: SimulatedDevice) {
        device.setEnrollmentChangeBehaviour(behaviour)
        device.setHasDomainStateAPI(hasDomainStateAPI)
    }

    var testDescription: String {
        let how =
            switch behaviour {
            case .deletesItems: "item deleted"
            case .invalidatesItems(let status): "item kept, failing with \(status)"
            case .invalidatesItemsAnsweringNeedsUI(let status): "item kept, \"needs UI\" without UI, failing with \(status) on a prompt"
            }
        return "\(how), \(hasDomainStateAPI ? "iOS 18 state hash" : "evaluatedPolicyDomainState only")"
    }
}
