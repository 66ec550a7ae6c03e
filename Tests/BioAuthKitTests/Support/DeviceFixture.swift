import BioAuthKit
import BioAuthSimulator
import Foundation

/// A simulated phone with a vault and a key store on it.
struct DeviceFixture {
    let device: SimulatedDevice
    let vault: BiometricVault
    let keys: DeviceKeyStore

    init(biometry: BiometryKind = .faceID, passcode: String? = "123456", enrolled: Set<String> = ["owner"]) {
        device = SimulatedDevice(biometry: biometry, passcode: passcode, enrolled: enrolled)
        vault = BiometricVault(service: "com.example.bank", backends: device.backends)
        keys = DeviceKeyStore(service: "com.example.bank", backends: device.backends)
    }

    static let secret = Data("ses_token_0123456789abcdef".utf8)
}
