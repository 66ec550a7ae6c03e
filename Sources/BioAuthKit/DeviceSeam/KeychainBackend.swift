import Foundation

/// The three keychain calls BioAuthKit uses, one to one, returning the raw status.
///
/// There is deliberately no `update`: replacing a protected item is delete + add, which never prompts.
@_spi(DeviceSeam) public protocol KeychainBackend: Sendable {
    /// `SecItemAdd`.
    func add(_ query: KeychainQuery) -> KeychainStatus
    /// `SecItemCopyMatching`: the status and, with ``KeychainQuery/returnData``, the item's data.
    /// May show the biometric prompt (and block until it is answered).
    func copyMatching(_ query: KeychainQuery) -> (status: KeychainStatus, data: Data?)
    /// `SecItemDelete`; never prompts.
    func delete(_ query: KeychainQuery) -> KeychainStatus
}
