/// The one place raw platform codes become ``BioAuthError``s: by error domain and code.
///
/// A Secure Enclave signature reports the user's answer through LocalAuthentication or
/// CryptoTokenKit; a keychain read through `OSStatus`. The same event (a cancel, a failed match,
/// a missing or unusable key) must become the same ``BioAuthError`` whichever domain reported it.
enum StatusMapping {
    /// A keychain or Secure Enclave failure (not success).
    static func error(for status: KeychainStatus) -> BioAuthError {
        switch status.domain {
        case .osStatus: osStatus(status.code)
        case .localAuthentication: error(for: LAErrorCode(rawValue: status.code))
        case .cryptoTokenKit: cryptoTokenKit(status.code)
        default: .systemFailure(status.description)
        }
    }

    /// `SecBase.h`.
    private static func osStatus(_ code: Int) -> BioAuthError {
        switch code {
        case -128: .userCanceled  // errSecUserCanceled
        case -25293: .authenticationFailed  // errSecAuthFailed
        case -25300: .itemNotFound  // errSecItemNotFound
        case -25308: .interactionNotAllowed  // errSecInteractionNotAllowed
        case -34018: .missingEntitlement  // errSecMissingEntitlement
        default: .systemFailure("OSStatus \(code)")
        }
    }

    /// `TKError.h` (iOS 16.5 SDK): the Secure Enclave is a CryptoTokenKit token.
    private static func cryptoTokenKit(_ code: Int) -> BioAuthError {
        switch code {
        case -4: .userCanceled  // TKErrorCodeCanceledByUser
        case -5: .authenticationFailed  // TKErrorCodeAuthenticationFailed
        case -6, -7: .itemNotFound  // TKErrorCodeObjectNotFound, TKErrorCodeTokenNotFound: the key is gone
        case -9: .interactionNotAllowed  // TKErrorCodeAuthenticationNeeded: a prompt was needed and not shown
        default: .systemFailure("CryptoTokenKit \(code)")
        }
    }

    /// A LocalAuthentication error code (`LAError.h`).
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

/// What an App Attest failure means for a registration: App Attest's evidence is only ever added,
/// and the server's policy (`--key-attestation`) alone decides whether a key registers without it,
/// so no failure here stops a registration by itself.
enum AppAttestFailure: Equatable, Sendable {
    /// App Attest is not offered here: register without evidence.
    case unsupported
    /// The key cannot be used (`attestKey` on a key already attested, `generateAssertion` on one
    /// never attested, or the service rejects it): forget it and start over with a new key, once.
    case invalidKey
    /// Apple's App Attest server is unreachable: try again with the same key and the same
    /// `clientDataHash` (Apple), and keep the key.
    case unavailable
    /// Anything else (`unknownSystemFailure`, `invalidInput`, another domain): discard the key, as
    /// Apple advises for any error but `serverUnavailable`, and start over with a new one, once;
    /// `detail` is for logs.
    case failed(String)
}

extension StatusMapping {
    /// An App Attest failure, by `DCError` code (DCError.h, iOS 16.5 SDK;
    /// https://developer.apple.com/documentation/devicecheck/dcerror-swift.struct).
    static func appAttestFailure(for status: KeychainStatus) -> AppAttestFailure {
        guard status.domain == .deviceCheck else { return .failed(status.description) }
        switch DCErrorCode(rawValue: status.code) {
        case .featureUnsupported: return .unsupported
        case .invalidKey: return .invalidKey
        case .serverUnavailable: return .unavailable
        default: return .failed(DCErrorCode(rawValue: status.code).description)  // unknownSystemFailure, invalidInput
        }
    }
}
