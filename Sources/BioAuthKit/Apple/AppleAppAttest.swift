#if canImport(DeviceCheck) && (os(iOS) || os(macOS))
import DeviceCheck
import Foundation

/// `DCAppAttestService.shared` (DeviceCheck; iOS 14, macOS 11), passed through: its `NSError`
/// (domain `DCErrorDomain`) becomes a ``KeychainStatus`` untouched.
/// https://developer.apple.com/documentation/devicecheck/dcappattestservice
struct AppleAppAttest: AppAttestBackend {
    var isSupported: Bool { DCAppAttestService.shared.isSupported }

    func generateKey() async throws(KeychainStatus) -> String {
        do {
            return try await DCAppAttestService.shared.generateKey()
        } catch {
            throw Self.status(of: error)
        }
    }

    func attestKey(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data {
        do {
            return try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        } catch {
            throw Self.status(of: error)
        }
    }

    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data {
        do {
            return try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        } catch {
            throw Self.status(of: error)
        }
    }

    /// The error's domain and code, as DeviceCheck reported them.
    private static func status(of error: any Error) -> KeychainStatus {
        let error = error as NSError
        return KeychainStatus(domain: KeychainStatus.Domain(rawValue: error.domain), code: error.code)
    }
}
#endif
