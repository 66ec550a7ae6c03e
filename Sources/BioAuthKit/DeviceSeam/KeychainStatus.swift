/// A failure exactly as the platform reports it: the error domain and the code.
///
/// Keychain calls return an `OSStatus` (domain `NSOSStatusErrorDomain`); `SecKeyCreateSignature`
/// returns a `CFError` whose domain may also be LocalAuthentication's (`com.apple.LocalAuthentication`,
/// `LAError` codes) or CryptoTokenKit's (`CryptoTokenKit`, `TKError` codes), since the Secure
/// Enclave answers through them. Backends hand both back untouched; BioAuthKit turns them into
/// ``BioAuthError`` in one place, by domain and code, so an app never compares numbers. App Attest
/// (``AppAttestBackend``) throws its `DCError` the same way, in the ``Domain/deviceCheck`` domain.
@_spi(DeviceSeam) public struct KeychainStatus: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error domain.
    public struct Domain: RawRepresentable, Hashable, Sendable {
        /// The domain's name, as `CFErrorGetDomain` gives it.
        public var rawValue: String

        /// Wraps a domain name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `NSOSStatusErrorDomain`: keychain `OSStatus` codes (SecBase.h).
        public static let osStatus = Domain(rawValue: "NSOSStatusErrorDomain")
        /// `LAErrorDomain` (`com.apple.LocalAuthentication`): `LAError.Code` values (LAError.h).
        public static let localAuthentication = Domain(rawValue: "com.apple.LocalAuthentication")
        /// `TKErrorDomain` (`CryptoTokenKit`): `TKError.Code` values (TKError.h).
        public static let cryptoTokenKit = Domain(rawValue: "CryptoTokenKit")
        /// `DCErrorDomain` (`com.apple.devicecheck.error`): `DCError.Code` values (DCError.h).
        public static let deviceCheck = Domain(rawValue: "com.apple.devicecheck.error")
    }

    /// Where the code comes from.
    public var domain: Domain
    /// The code within ``domain``.
    public var code: Int

    /// A failure in any domain.
    public init(domain: Domain, code: Int) {
        self.domain = domain
        self.code = code
    }

    /// An `OSStatus`.
    public init(rawValue: Int32) {
        self.init(domain: .osStatus, code: Int(rawValue))
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
    /// `errSecItemNotFound` (-25300): no such item.
    public static let itemNotFound = KeychainStatus(rawValue: -25300)
    /// `errSecInteractionNotAllowed` (-25308): the item needs a prompt and none may be shown.
    public static let interactionNotAllowed = KeychainStatus(rawValue: -25308)
    /// `errSecMissingEntitlement` (-34018): the app lacks the keychain entitlement.
    public static let missingEntitlement = KeychainStatus(rawValue: -34018)

    /// An `LAError.Code` reported by a keychain or Secure Enclave operation.
    public static func localAuthentication(_ code: LAErrorCode) -> KeychainStatus {
        KeychainStatus(domain: .localAuthentication, code: code.rawValue)
    }

    /// A `TKError.Code` reported by the Secure Enclave (a CryptoTokenKit token).
    public static func cryptoTokenKit(_ code: Int) -> KeychainStatus {
        KeychainStatus(domain: .cryptoTokenKit, code: code)
    }

    /// A `DCError.Code` reported by App Attest.
    public static func deviceCheck(_ code: DCErrorCode) -> KeychainStatus {
        KeychainStatus(domain: .deviceCheck, code: code.rawValue)
    }

    /// Domain and code, for logs.
    public var description: String {
        domain == .osStatus ? "OSStatus \(code)" : "\(domain.rawValue) \(code)"
    }
}
