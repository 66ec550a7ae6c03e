@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import Foundation

/// Records every query BioAuthKit sends to the device, then forwards it to a simulated device.
final class QuerySpy: KeychainBackend, SecureKeyBackend, @unchecked Sendable {
    enum Call {
        case add(KeychainQuery)
        case copy(KeychainQuery)
        case delete(KeychainQuery)
        case createKey(KeychainQuery)
        case copyKey(KeychainQuery)
        case deleteKey(KeychainQuery)
        case sign
    }

    let device: SimulatedDevice
    private let lock = NSLock()
    private var log: [Call] = []

    init(device: SimulatedDevice) {
        self.device = device
    }

    var backends: DeviceBackends {
        DeviceBackends(keychain: self, secureKeys: self, localAuthentication: device.backends.localAuthentication)
    }

    var calls: [Call] { lock.withLock { log } }

    private func record(_ call: Call) {
        lock.withLock { log.append(call) }
    }

    func add(_ query: KeychainQuery) -> KeychainStatus {
        record(.add(query))
        return device.add(query)
    }
    func copyMatching(_ query: KeychainQuery) -> (status: KeychainStatus, data: Data?) {
        record(.copy(query))
        return device.copyMatching(query)
    }
    func delete(_ query: KeychainQuery) -> KeychainStatus {
        record(.delete(query))
        return device.delete(query)
    }
    func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        record(.createKey(query))
        return device.createRandomKey(query)
    }
    func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        record(.copyKey(query))
        return device.copyKey(query)
    }
    func deleteKey(_ query: KeychainQuery) -> KeychainStatus {
        record(.deleteKey(query))
        return device.deleteKey(query)
    }
    var isSecureEnclaveAvailable: Bool { device.isSecureEnclaveAvailable }
    func copyPublicKey(_ key: any SecureKeyHandle) -> Data? { device.copyPublicKey(key) }
    func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?) {
        record(.sign)
        return device.createSignature(key, message: message)
    }
}
