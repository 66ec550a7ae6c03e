#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import Security

/// `SecItemAdd` / `SecItemCopyMatching` / `SecItemDelete`, passed through.
struct AppleKeychain: KeychainBackend {
    func add(_ query: KeychainQuery) -> KeychainStatus {
        guard let dictionary = AppleQuery.dictionary(query) else { return .parameterError }
        return KeychainStatus(rawValue: SecItemAdd(dictionary as CFDictionary, nil))
    }

    func copyMatching(_ query: KeychainQuery) -> (status: KeychainStatus, data: Data?) {
        guard let dictionary = AppleQuery.dictionary(query) else { return (.parameterError, nil) }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary as CFDictionary, &result)
        return (KeychainStatus(rawValue: status), result as? Data)
    }

    func delete(_ query: KeychainQuery) -> KeychainStatus {
        guard let dictionary = AppleQuery.dictionary(query) else { return .parameterError }
        return KeychainStatus(rawValue: SecItemDelete(dictionary as CFDictionary))
    }
}
#endif
