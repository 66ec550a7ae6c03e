/// The one place raw platform codes become ``BioAuthError``s.
enum StatusMapping {
    /// A keychain or Secure Enclave status (not success).
    static func error(for status: KeychainStatus) -> BioAuthError {
        switch status {
        case .userCanceled: .userCanceled
        case .authFailed: .authenticationFailed
        case .itemNotFound: .itemNotFound
        case .interactionNotAllowed: .interactionNotAllowed
        case .missingEntitlement: .missingEntitlement
        default: .systemFailure(status.description)
        }
    }

    /// A LocalAuthentication error code.
    static func error(for code: LAErrorCode) -> BioAuthError {
        switch code {
        case .authenticationFailed: .authenticationFailed
        case .userCancel, .userFallback, .systemCancel, .appCancel: .userCanceled
        case .passcodeNotSet: .passcodeNotSet
        case .biometryNotAvailable: .biometryNotAvailable
        case .biometryNotEnrolled: .biometryNotEnrolled
        case .biometryLockout: .biometryLockout
        case .notInteractive: .interactionNotAllowed
        default: .systemFailure(code.description)
        }
    }
}
