/// The stable error codes of the contract. Every error answer carries exactly one.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    case invalidRequest = "invalid_request"
    case invalidUsername = "invalid_username"
    case invalidPassword = "invalid_password"
    case invalidPIN = "invalid_pin"
    case usernameTaken = "username_taken"
    case invalidCredentials = "invalid_credentials"
    case locked
    case invalidSession = "invalid_session"
    case invalidSessionDuration = "invalid_session_duration"
    case notFound = "not_found"
    case unsupportedAlgorithm = "unsupported_algorithm"
    case invalidPublicKey = "invalid_public_key"
    case duplicateRegistration = "duplicate_registration"
    case tooManyRegistrations = "too_many_registrations"
    case invalidSignatureEncoding = "invalid_signature_encoding"
    case challengeInvalid = "challenge_invalid"
    case signatureInvalid = "signature_invalid"
    case registrationNotFound = "registration_not_found"
    case payloadTooLarge = "payload_too_large"
    case rateLimited = "rate_limited"
    case methodNotAllowed = "method_not_allowed"
    /// The PIN is one of the most common PINs (repeated digits, sequences, years, …).
    case pinTooCommon = "pin_too_common"
    /// The PIN locked again and again; only a password sign-in unlocks it.
    case pinLocked = "pin_locked"
    /// The password failed so many times in a row that it stays locked until an operator unlocks
    /// it (`bioauth admin unlock`) or recovers the account.
    case passwordLocked = "password_locked"
    /// The call changes a credential and the session's last primary authentication is too old:
    /// re-authenticate (`POST /v1/sessions/current/reauthenticate`) and try again.
    case reauthenticationRequired = "reauthentication_required"
    /// The session was signed in with a one-time password: change the password first.
    case passwordChangeRequired = "password_change_required"
    /// No active passkey has that credential id (never registered, or revoked): a browser should
    /// be told (`PublicKeyCredential.signalUnknownCredential`).
    case passkeyUnknown = "passkey_unknown"
    /// The authenticator's answer failed WebAuthn's verification (origin, RP id, presence,
    /// signature, counter, attestation); the message says which check.
    case passkeyInvalid = "passkey_invalid"
    /// The authenticator did not verify the user (UV clear) where verification is required.
    case userVerificationRequired = "user_verification_required"
    /// The server requires hardware evidence for device keys (`key_attestation`) and none came.
    case attestationRequired = "attestation_required"
    /// The device key's hardware evidence was refused; `reason` says which rule it broke.
    case attestationRefused = "attestation_refused"
    /// A browser session's state change without the page's CSRF token, or from another origin.
    case csrfFailed = "csrf_failed"
    /// The server cannot take the request now (every password and PIN check slot is taken, or its
    /// database is unreachable); try again after `Retry-After` seconds.
    case unavailable
    /// A server fault; never the answer to client input.
    case internalError = "internal_error"
}

/// The body of every error answer: `{"error": {"code": …, "message": …}}`.
public struct ErrorResponse: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// The stable, machine-readable code.
        public var code: ErrorCode
        /// Human-readable text; may change between versions.
        public var message: String
        /// For `attestation_refused`: the stable code of the rule the evidence broke.
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
