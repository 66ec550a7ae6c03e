@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// Where an item lives: class, service, account.
struct ItemID: Hashable, Sendable {
    var itemClass: String
    var service: String
    var account: String
}

/// A keychain item or Secure Enclave key inside the simulated hardware.
struct SimulatedItem: Sendable {
    var accessibility: String
    var accessControl: UInt?
    /// Generic password data.
    var data: Data?
    /// A P-256 private key's raw scalar; never leaves the simulated hardware.
    var privateKey: Data?
    /// Invalidated by an enrollment change, and kept (``EnrollmentChangeBehaviour``): every use
    /// fails with this status.
    var invalidation: KeychainStatus?
    /// The invalidated item answers "needs UI" without UI and prompts before it fails
    /// (``EnrollmentChangeBehaviour/invalidatesItemsAnsweringNeedsUI(failingWith:)``).
    var invalidationAsksForUI = false
}
