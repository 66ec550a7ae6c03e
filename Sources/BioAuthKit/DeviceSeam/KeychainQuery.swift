import Foundation

/// A platform-neutral keychain query: exactly the dictionary keys BioAuthKit ever sends to
/// `SecItemAdd`, `SecItemCopyMatching`, `SecItemDelete` and `SecKeyCreateRandomKey`.
///
/// BioAuthKit builds every query (which class, which protection, which context); a backend
/// only translates it key for key.
@_spi(DeviceSeam) public struct KeychainQuery: Sendable {
    /// `kSecClass`.
    public var itemClass: ItemClass
    /// `kSecAttrService` (for keys: the first half of `kSecAttrApplicationTag`).
    public var service: String
    /// `kSecAttrAccount` (for keys: the second half of `kSecAttrApplicationTag`).
    public var account: String
    /// When the item can be read; with ``accessControl`` it becomes the access control's protection.
    public var accessibility: ItemAccessibility?
    /// `kSecAttrAccessControl` flags; `nil` means plain `kSecAttrAccessible` (the two are exclusive).
    public var accessControl: AccessControlFlags?
    /// `kSecValueData` (add only).
    public var data: Data?
    /// `kSecReturnData` (copy only).
    public var returnData: Bool
    /// `kSecUseAuthenticationContext`: the context whose authentication the operation uses or reuses.
    public var authenticationContext: (any AuthenticationContext)?
    /// Fail with `errSecInteractionNotAllowed` instead of prompting (set on the context).
    public var interactionNotAllowed: Bool
    /// The text the prompt shows (the context's `localizedReason`).
    public var operationPrompt: String?
    /// `kSecAttrTokenIDSecureEnclave` (key creation only).
    public var secureEnclave: Bool

    /// Creates a query; every optional key starts absent.
    public init(
        itemClass: ItemClass,
        service: String,
        account: String,
        accessibility: ItemAccessibility? = nil,
        accessControl: AccessControlFlags? = nil,
        data: Data? = nil,
        returnData: Bool = false,
        authenticationContext: (any AuthenticationContext)? = nil,
        interactionNotAllowed: Bool = false,
        operationPrompt: String? = nil,
        secureEnclave: Bool = false
    ) {
        self.itemClass = itemClass
        self.service = service
        self.account = account
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.data = data
        self.returnData = returnData
        self.authenticationContext = authenticationContext
        self.interactionNotAllowed = interactionNotAllowed
        self.operationPrompt = operationPrompt
        self.secureEnclave = secureEnclave
    }

    /// The application tag of a key: `service` and `account` joined by a NUL.
    public var applicationTag: Data {
        Data(service.utf8) + Data([0]) + Data(account.utf8)
    }
}
