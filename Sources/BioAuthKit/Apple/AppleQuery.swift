#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication
import Security

/// Translates a ``KeychainQuery`` key for key into the Security framework's dictionary. No
/// decisions are made here: which keys are present was decided by BioAuthKit's neutral code.
enum AppleQuery {
    static func accessibility(_ value: ItemAccessibility) -> CFString {
        switch value {
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        }
    }

    /// `SecAccessControlCreateWithFlags(accessibility, flags)`.
    static func accessControl(_ query: KeychainQuery, _ flags: AccessControlFlags) -> SecAccessControl? {
        SecAccessControlCreateWithFlags(
            nil,
            accessibility(query.accessibility ?? .whenPasscodeSetThisDeviceOnly),
            SecAccessControlCreateFlags(rawValue: CFOptionFlags(flags.rawValue)),
            nil
        )
    }

    /// The dictionary for `SecItemAdd` / `SecItemCopyMatching` / `SecItemDelete`, or `nil` when
    /// the access control cannot be created.
    static func dictionary(_ query: KeychainQuery, returnRef: Bool = false) -> [String: Any]? {
        var dictionary: [String: Any] = [kSecUseDataProtectionKeychain as String: true]
        switch query.itemClass {
        case .genericPassword:
            dictionary[kSecClass as String] = kSecClassGenericPassword
            dictionary[kSecAttrService as String] = query.service
            dictionary[kSecAttrAccount as String] = query.account
        case .key:
            dictionary[kSecClass as String] = kSecClassKey
            dictionary[kSecAttrApplicationTag as String] = query.applicationTag
            dictionary[kSecAttrKeyType as String] = kSecAttrKeyTypeECSECPrimeRandom
        }
        // Accessibility and access control are mutually exclusive keys.
        if let flags = query.accessControl {
            guard let control = accessControl(query, flags) else { return nil }
            dictionary[kSecAttrAccessControl as String] = control
        } else if let value = query.accessibility {
            dictionary[kSecAttrAccessible as String] = accessibility(value)
        }
        if let data = query.data { dictionary[kSecValueData as String] = data }
        if query.returnData {
            dictionary[kSecReturnData as String] = true
            dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
        }
        if returnRef { dictionary[kSecReturnRef as String] = true }
        if let context = laContext(query) { dictionary[kSecUseAuthenticationContext as String] = context }
        return dictionary
    }

    /// The query's `LAContext`, with its prompt text and interaction flag applied.
    static func laContext(_ query: KeychainQuery) -> LAContext? {
        guard let wrapper = query.authenticationContext as? AppleAuthenticationContext else { return nil }
        if let prompt = query.operationPrompt { wrapper.context.localizedReason = prompt }
        if query.interactionNotAllowed { wrapper.context.interactionNotAllowed = true }
        return wrapper.context
    }

    /// The domain and code of a `CFError` from a `SecKey…` call, untouched (OSStatus,
    /// LocalAuthentication or CryptoTokenKit: StatusMapping tells them apart).
    static func status(of error: Unmanaged<CFError>?) -> KeychainStatus {
        guard let error = error?.takeRetainedValue() else { return .parameterError }
        return KeychainStatus(domain: .init(rawValue: CFErrorGetDomain(error) as String), code: CFErrorGetCode(error))
    }
}
#endif
