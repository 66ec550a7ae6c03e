@_spi(DeviceSeam) import BioAuthKit
import Foundation

/// The device seen through BioAuthKit's seams: each call goes to the device's own method of the
/// same name (`SimulatedDevice+Keychain`, `+SecureEnclave`, `+LocalAuthentication`).
struct SimulatedBackend: KeychainBackend, SecureKeyBackend, LocalAuthenticationBackend, DeviceClock {
    let device: SimulatedDevice

    func add(_ query: KeychainQuery) -> KeychainStatus { device.add(query) }
    func copyMatching(_ query: KeychainQuery) -> (status: KeychainStatus, data: Data?) { device.copyMatching(query) }
    func delete(_ query: KeychainQuery) -> KeychainStatus { device.delete(query) }
    func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) { device.createRandomKey(query) }
    func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) { device.copyKey(query) }
    func deleteKey(_ query: KeychainQuery) -> KeychainStatus { device.deleteKey(query) }
    func copyPublicKey(_ key: any SecureKeyHandle) -> Data? { device.copyPublicKey(key) }
    func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?) {
        device.createSignature(key, message: message)
    }
    func makeContext() -> any AuthenticationContext { device.makeContext() }
    var isSecureEnclaveAvailable: Bool { device.isSecureEnclaveAvailable }
    func seconds() -> Double { device.state.withLock { $0.clock } }
}
