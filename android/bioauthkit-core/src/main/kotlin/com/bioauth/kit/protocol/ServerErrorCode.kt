package com.bioauth.kit.protocol

/**
 * The contract's stable error codes (docs/PROTOCOL.md, `ErrorCode` in openapi.yaml). A code this
 * SDK does not know yet (a newer server) reads as [UNKNOWN]; its text stays in
 * `ServerRejection.rawCode`.
 */
public enum class ServerErrorCode(
    /** The code as the server writes it. */
    public val wire: String,
) {
    /** The body or a parameter is not the contract's. */
    INVALID_REQUEST("invalid_request"),

    /** The username breaks the server's rules. */
    INVALID_USERNAME("invalid_username"),

    /** The password breaks the server's rules. */
    INVALID_PASSWORD("invalid_password"),

    /** The PIN is not 6 to 12 digits. */
    INVALID_PIN("invalid_pin"),

    /** Someone has the username (or one that looks the same). */
    USERNAME_TAKEN("username_taken"),

    /** Wrong username, password or PIN (never which). */
    INVALID_CREDENTIALS("invalid_credentials"),

    /** Too many failures: wait `Retry-After` seconds. */
    LOCKED("locked"),

    /** The session token is unknown, ended or expired. */
    INVALID_SESSION("invalid_session"),

    /** `session_duration_minutes` is out of range. */
    INVALID_SESSION_DURATION("invalid_session_duration"),

    /** No such resource. */
    NOT_FOUND("not_found"),

    /** The key algorithm is not ES256 or Ed25519. */
    UNSUPPORTED_ALGORITHM("unsupported_algorithm"),

    /** The public key is not a valid key of its algorithm. */
    INVALID_PUBLIC_KEY("invalid_public_key"),

    /** This public key is registered already. */
    DUPLICATE_REGISTRATION("duplicate_registration"),

    /** The account has as many registrations as the server allows. */
    TOO_MANY_REGISTRATIONS("too_many_registrations"),

    /** The signature is not DER (ES256) or 64 bytes (Ed25519). */
    INVALID_SIGNATURE_ENCODING("invalid_signature_encoding"),

    /** The challenge is unknown, spent, expired or for another ceremony. */
    CHALLENGE_INVALID("challenge_invalid"),

    /** The signature does not verify. */
    SIGNATURE_INVALID("signature_invalid"),

    /** The registration is unknown, pending or revoked. */
    REGISTRATION_NOT_FOUND("registration_not_found"),

    /** The body is too large. */
    PAYLOAD_TOO_LARGE("payload_too_large"),

    /** Too many requests from this address: wait `Retry-After` seconds. */
    RATE_LIMITED("rate_limited"),

    /** The method is not allowed on this path. */
    METHOD_NOT_ALLOWED("method_not_allowed"),

    /** The PIN is one of the most common ones. */
    PIN_TOO_COMMON("pin_too_common"),

    /** The PIN locked again and again: only a password sign-in unlocks it. */
    PIN_LOCKED("pin_locked"),

    /** The password is locked until an operator unlocks it. */
    PASSWORD_LOCKED("password_locked"),

    /** A credential change needs a recent sign-in: re-authenticate and retry. */
    REAUTHENTICATION_REQUIRED("reauthentication_required"),

    /** The session may only change the password (after a one-time password). */
    PASSWORD_CHANGE_REQUIRED("password_change_required"),

    /** No such passkey. */
    PASSKEY_UNKNOWN("passkey_unknown"),

    /** The passkey assertion does not verify. */
    PASSKEY_INVALID("passkey_invalid"),

    /** The passkey ceremony lacked user verification. */
    USER_VERIFICATION_REQUIRED("user_verification_required"),

    /** The server registers device keys only with hardware evidence, and none came. */
    ATTESTATION_REQUIRED("attestation_required"),

    /** The device key's hardware evidence was refused; the error's `reason` says which rule it broke. */
    ATTESTATION_REFUSED("attestation_refused"),

    /** The account page's CSRF check failed. */
    CSRF_FAILED("csrf_failed"),

    /**
     * A confirmation's details break a rule of their kind (an unknown kind, a field missing or not
     * allowed), or its expiry is out of range; `reason` names the field.
     */
    INVALID_CONFIRMATION("invalid_confirmation"),

    /** A payment's amount is not a positive decimal with at most its currency's minor digits. */
    INVALID_AMOUNT("invalid_amount"),

    /** A payment's currency is not an active ISO 4217 code. */
    INVALID_CURRENCY("invalid_currency"),

    /** Text a confirmation would show has characters that could mislead; `reason` names the field. */
    INVALID_CONFIRMATION_TEXT("invalid_confirmation_text"),

    /** A confirmation's field, or its canonical details, is over its size limit. */
    CONFIRMATION_TOO_LARGE("confirmation_too_large"),

    /** The account a confirmation is for does not exist (the bank's backend asked). */
    ACCOUNT_NOT_FOUND("account_not_found"),

    /** The confirmation is no longer pending: approved, declined, expired or blocked. */
    CONFIRMATION_CLOSED("confirmation_closed"),

    /** The factor may not approve confirmations on this server (a PIN, unless the operator allows it). */
    CONFIRMATION_FACTOR_NOT_ALLOWED("confirmation_factor_not_allowed"),

    /** The server requires an App Attest assertion with an iOS key's approval, and none came or it did not verify. */
    APP_ATTEST_ASSERTION_INVALID("app_attest_assertion_invalid"),

    /** The service credential is missing, unknown or revoked (the bank's backend's calls). */
    INVALID_SERVICE_CREDENTIAL("invalid_service_credential"),

    /** The server is overloaded or its database is down: retry after `Retry-After`. */
    UNAVAILABLE("unavailable"),

    /** The server failed. */
    INTERNAL_ERROR("internal_error"),

    /** A code this SDK does not know. */
    UNKNOWN(""),
    ;

    public companion object {
        /** The code for [wire]; [UNKNOWN] for anything this SDK does not know. */
        public fun of(wire: String): ServerErrorCode = entries.firstOrNull { it.wire == wire && it != UNKNOWN } ?: UNKNOWN
    }
}
