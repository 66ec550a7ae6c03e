/// The stable error codes of the contract. Every error answer carries exactly one.
public struct ErrorCode: OpenVocabulary {
    /// The text on the wire.
    public let rawValue: String

    /// The value with this text, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `invalid_request`.
    public static let invalidRequest = Self(rawValue: "invalid_request")
    /// `invalid_username`.
    public static let invalidUsername = Self(rawValue: "invalid_username")
    /// `invalid_password`.
    public static let invalidPassword = Self(rawValue: "invalid_password")
    /// `invalid_pin`.
    public static let invalidPIN = Self(rawValue: "invalid_pin")
    /// `username_taken`.
    public static let usernameTaken = Self(rawValue: "username_taken")
    /// `invalid_credentials`.
    public static let invalidCredentials = Self(rawValue: "invalid_credentials")
    /// `locked`.
    public static let locked = Self(rawValue: "locked")
    /// `invalid_session`.
    public static let invalidSession = Self(rawValue: "invalid_session")
    /// `invalid_session_duration`.
    public static let invalidSessionDuration = Self(rawValue: "invalid_session_duration")
    /// `not_found`.
    public static let notFound = Self(rawValue: "not_found")
    /// `unsupported_algorithm`.
    public static let unsupportedAlgorithm = Self(rawValue: "unsupported_algorithm")
    /// `invalid_public_key`.
    public static let invalidPublicKey = Self(rawValue: "invalid_public_key")
    /// `duplicate_registration`.
    public static let duplicateRegistration = Self(rawValue: "duplicate_registration")
    /// `too_many_registrations`.
    public static let tooManyRegistrations = Self(rawValue: "too_many_registrations")
    /// `invalid_signature_encoding`.
    public static let invalidSignatureEncoding = Self(rawValue: "invalid_signature_encoding")
    /// `challenge_invalid`.
    public static let challengeInvalid = Self(rawValue: "challenge_invalid")
    /// `signature_invalid`.
    public static let signatureInvalid = Self(rawValue: "signature_invalid")
    /// `registration_not_found`.
    public static let registrationNotFound = Self(rawValue: "registration_not_found")
    /// `payload_too_large`.
    public static let payloadTooLarge = Self(rawValue: "payload_too_large")
    /// `rate_limited`.
    public static let rateLimited = Self(rawValue: "rate_limited")
    /// `method_not_allowed`.
    public static let methodNotAllowed = Self(rawValue: "method_not_allowed")
    /// The PIN is one of the most common PINs (repeated digits, sequences, years, …).
    public static let pinTooCommon = Self(rawValue: "pin_too_common")
    /// The PIN locked again and again; only a password sign-in unlocks it.
    public static let pinLocked = Self(rawValue: "pin_locked")
    /// The password failed so many times in a row that it stays locked until an operator unlocks
    /// it (`bioauth admin unlock`) or recovers the account.
    public static let passwordLocked = Self(rawValue: "password_locked")
    /// The call changes a credential and the session's last primary authentication is too old:
    /// re-authenticate (`POST /v1/sessions/current/reauthenticate`) and try again.
    public static let reauthenticationRequired = Self(rawValue: "reauthentication_required")
    /// The session was signed in with a one-time password: change the password first.
    public static let passwordChangeRequired = Self(rawValue: "password_change_required")
    /// No active passkey has that credential id (never registered, or revoked): a browser should
    /// be told (`PublicKeyCredential.signalUnknownCredential`).
    public static let passkeyUnknown = Self(rawValue: "passkey_unknown")
    /// The authenticator's answer failed WebAuthn's verification (origin, RP id, presence,
    /// signature, counter, attestation); the message says which check.
    public static let passkeyInvalid = Self(rawValue: "passkey_invalid")
    /// The authenticator did not verify the user (UV clear) where verification is required.
    public static let userVerificationRequired = Self(rawValue: "user_verification_required")
    /// The server requires hardware evidence for device keys (`key_attestation`) and none came.
    public static let attestationRequired = Self(rawValue: "attestation_required")
    /// The device key's hardware evidence was refused; `reason` says which rule it broke.
    public static let attestationRefused = Self(rawValue: "attestation_refused")
    /// A browser session's state change without the page's CSRF token, or from another origin.
    public static let csrfFailed = Self(rawValue: "csrf_failed")
    /// A confirmation's details break a rule of their kind (an unknown kind, a field missing or
    /// not allowed) or its expiry is out of range; `reason` names the field.
    public static let invalidConfirmation = Self(rawValue: "invalid_confirmation")
    /// A payment's amount is not a positive decimal with at most its currency's minor digits.
    public static let invalidAmount = Self(rawValue: "invalid_amount")
    /// A payment's currency is not an active ISO 4217 code.
    public static let invalidCurrency = Self(rawValue: "invalid_currency")
    /// Text a confirmation would show has characters that could mislead (controls, direction
    /// overrides, invisible or look-alike characters); `reason` names the field.
    public static let invalidConfirmationText = Self(rawValue: "invalid_confirmation_text")
    /// A confirmation's field, or its canonical details, is over its size limit.
    public static let confirmationTooLarge = Self(rawValue: "confirmation_too_large")
    /// The account a confirmation is for does not exist.
    public static let accountNotFound = Self(rawValue: "account_not_found")
    /// The confirmation is no longer pending: approved, declined, expired or blocked.
    public static let confirmationClosed = Self(rawValue: "confirmation_closed")
    /// The factor may not approve confirmations on this server (a PIN, unless the operator allows it).
    public static let confirmationFactorNotAllowed = Self(rawValue: "confirmation_factor_not_allowed")
    /// The server requires an App Attest assertion with an iOS key's approval and none came, or it
    /// did not verify.
    public static let appAttestAssertionInvalid = Self(rawValue: "app_attest_assertion_invalid")
    /// The service credential is missing, unknown or revoked.
    public static let invalidServiceCredential = Self(rawValue: "invalid_service_credential")
    /// The server cannot take the request now (every password and PIN check slot is taken, or its
    /// database is unreachable); try again after `Retry-After` seconds.
    public static let unavailable = Self(rawValue: "unavailable")
    /// A server fault; never the answer to client input.
    public static let internalError = Self(rawValue: "internal_error")

    /// The values this version knows.
    public static let allCases: [Self] = [
        .invalidRequest, .invalidUsername, .invalidPassword, .invalidPIN, .usernameTaken, .invalidCredentials, .locked, .invalidSession,
        .invalidSessionDuration, .notFound, .unsupportedAlgorithm, .invalidPublicKey, .duplicateRegistration, .tooManyRegistrations,
        .invalidSignatureEncoding, .challengeInvalid, .signatureInvalid, .registrationNotFound, .payloadTooLarge, .rateLimited, .methodNotAllowed,
        .pinTooCommon, .pinLocked, .passwordLocked, .reauthenticationRequired, .passwordChangeRequired, .passkeyUnknown, .passkeyInvalid,
        .userVerificationRequired, .attestationRequired, .attestationRefused, .csrfFailed, .invalidConfirmation, .invalidAmount,
        .invalidCurrency, .invalidConfirmationText, .confirmationTooLarge, .accountNotFound, .confirmationClosed,
        .confirmationFactorNotAllowed, .appAttestAssertionInvalid, .invalidServiceCredential, .unavailable, .internalError,
    ]
}

/// The body of every error answer: `{"error": {"code": …, "message": …}}`.
public struct ErrorResponse: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// The stable, machine-readable code.
        public var code: ErrorCode
        /// Human-readable text; may change between versions.
        public var message: String
        /// For `attestation_refused`: the stable code of the rule the evidence broke; for a
        /// confirmation's details: the field.
        public var reason: String?

        /// Creates an error detail.
        public init(code: ErrorCode, message: String, reason: String? = nil) {
            self.code = code
            self.message = message
            self.reason = reason
        }
    }

    /// The error.
    public var error: Detail

    /// Creates an error body.
    public init(code: ErrorCode, message: String, reason: String? = nil) {
        self.error = Detail(code: code, message: message, reason: reason)
    }
}
