/// A raw `OSStatus` as the Keychain and Secure Enclave calls return it.
///
/// Backends hand these back untouched; BioAuthKit turns them into ``BioAuthError`` in one place,
/// so an app never has to compare status numbers.
public struct KeychainStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `OSStatus` value.
    public var rawValue: Int32

    /// Wraps an `OSStatus`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `errSecSuccess` (0).
    public static let success = KeychainStatus(rawValue: 0)
    /// `errSecUserCanceled` (-128): the user dismissed the prompt.
    public static let userCanceled = KeychainStatus(rawValue: -128)
    /// `errSecParam` (-50): a malformed query.
    public static let parameterError = KeychainStatus(rawValue: -50)
    /// `errSecNotAvailable` (-25291): no keychain (or no Secure Enclave) is available.
    public static let notAvailable = KeychainStatus(rawValue: -25291)
    /// `errSecAuthFailed` (-25293): the user could not be authenticated.
    public static let authFailed = KeychainStatus(rawValue: -25293)
    /// `errSecDuplicateItem` (-25299): an item with these attributes already exists.
    public static let duplicateItem = KeychainStatus(rawValue: -25299)
    /// `errSecItemNotFound` (-25300): no such item; also what an invalidated
    /// `.biometryCurrentSet` item answers after an enrollment change.
    public static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecInteractionNotAllowed` (-25308): the item needs a prompt and none may be shown.
    public static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement` (-34018): the app lacks the keychain entitlement.
    public static let missingEntitlement = KeychainStatus(rawValue: -34018)

    /// The number, for logs.
    public var description: String { "OSStatus \(rawValue)" }
}
