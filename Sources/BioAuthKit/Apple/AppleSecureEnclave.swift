#if canImport(Security) && canImport(LocalAuthentication)
import CryptoKit
import Foundation
import Security

/// `SecKeyCreateRandomKey` in the Secure Enclave, `SecKeyCopyPublicKey`, `SecKeyCreateSignature`
/// (`.ecdsaSignatureMessageX962SHA256`), passed through.
struct AppleSecureEnclave: SecureKeyBackend {
    var isSecureEnclaveAvailable: Bool { SecureEnclave.isAvailable }

    func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        guard let flags = query.accessControl, let control = AppleQuery.accessControl(query, flags) else { return (.parameterError, nil) }
        var privateAttributes: [String: Any] = [
            kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: query.applicationTag,
            kSecAttrAccessControl as String: control,
        ]
        if let context = AppleQuery.laContext(query) { privateAttributes[kSecUseAuthenticationContext as String] = context }
        var attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: privateAttributes,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if query.secureEnclave { attributes[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave }
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else { return (AppleQuery.status(of: error), nil) }
        return (.success, AppleKeyHandle(key: key))
    }

    func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?) {
        guard let dictionary = AppleQuery.dictionary(query, returnRef: true) else { return (.parameterError, nil) }
        var result: CFTypeRef?
        let status = KeychainStatus(rawValue: SecItemCopyMatching(dictionary as CFDictionary, &result))
        guard status == .success, let result, CFGetTypeID(result) == SecKeyGetTypeID() else {
            return (status == .success ? .itemNotFound : status, nil)
        }
        return (.success, AppleKeyHandle(key: result as! SecKey))
    }

    func deleteKey(_ query: KeychainQuery) -> KeychainStatus {
        guard let dictionary = AppleQuery.dictionary(query) else { return .parameterError }
        return KeychainStatus(rawValue: SecItemDelete(dictionary as CFDictionary))
    }

    func copyPublicKey(_ key: any SecureKeyHandle) -> Data? {
        guard let handle = key as? AppleKeyHandle, let publicKey = SecKeyCopyPublicKey(handle.key) else { return nil }
        return SecKeyCopyExternalRepresentation(publicKey, nil) as Data?
    }

    func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?) {
        guard let handle = key as? AppleKeyHandle else { return (.parameterError, nil) }
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(handle.key, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) else {
            return (AppleQuery.status(of: error), nil)
        }
        return (.success, signature as Data)
    }
}
#endif
