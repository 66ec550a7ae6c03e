import Foundation

/// The Secure Enclave key calls BioAuthKit uses, one to one, returning the raw status.
@_spi(DeviceSeam) public protocol SecureKeyBackend: Sendable {
    /// `SecureEnclave.isAvailable` (CryptoKit): whether this device has a Secure Enclave.
    var isSecureEnclaveAvailable: Bool { get }
    /// `SecKeyCreateRandomKey`: a permanent P-256 key in the Secure Enclave, tagged with the
    /// query's application tag and protected by its accessibility and access-control flags.
    func createRandomKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?)
    /// `SecItemCopyMatching` for `kSecClassKey` with `kSecReturnRef`: the key bound to the query's
    /// authentication context. Never prompts (only using the key does).
    func copyKey(_ query: KeychainQuery) -> (status: KeychainStatus, key: (any SecureKeyHandle)?)
    /// `SecItemDelete` for `kSecClassKey`.
    func deleteKey(_ query: KeychainQuery) -> KeychainStatus
    /// `SecKeyCopyPublicKey` + `SecKeyCopyExternalRepresentation`: the X9.63 public point.
    func copyPublicKey(_ key: any SecureKeyHandle) -> Data?
    /// `SecKeyCreateSignature` with `.ecdsaSignatureMessageX962SHA256`: a DER signature of
    /// `message`. Shows the prompt unless the key's context already authenticated.
    func createSignature(_ key: any SecureKeyHandle, message: Data) -> (status: KeychainStatus, signature: Data?)
}
