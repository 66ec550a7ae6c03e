package com.bioauth.kit.errors

/**
 * Every failure of the SDK: a [code] an app switches on (new codes may be added, so keep an
 * `else` branch), the server's [rejection] when the server refused, and a [detail] for logs.
 *
 * What the app should do, by code (docs/BIOAUTHKIT-ANDROID.md has the whole table):
 * [Code.USER_CANCELED] nothing; [Code.BIOMETRY_LOCKOUT] wait, or offer the password;
 * [Code.BIOMETRY_LOCKOUT_PERMANENT] the device credential must be entered in Settings; offer the
 * password; [Code.BIOMETRY_NOT_ENROLLED] / [Code.NO_SECURE_LOCK_SCREEN] explain, offer the password;
 * [Code.HARDWARE_UNAVAILABLE] offer the password; [Code.KEY_INVALIDATED] biometrics changed: sign in
 * with the password (that revokes the stale registration) and offer to enable biometrics again;
 * [Code.KEY_MISSING] biometric sign-in is not (or no longer) enabled here; [Code.SERVER] read
 * [rejection]'s code; [Code.TRANSPORT] the network; [Code.NOT_SIGNED_IN] sign in first.
 */
class BioAuthException(
    val code: Code,
    val detail: String? = null,
    val rejection: ServerRejection? = null,
    cause: Throwable? = null,
) : Exception(detail?.let { "${code.name}: $it" } ?: code.name, cause) {
    /** What went wrong, in the words of the platform and the contract. */
    enum class Code {
        /** The user dismissed the prompt or pressed its negative button. */
        USER_CANCELED,

        /** Too many failed matches: biometrics are locked for a while (about 30 s). */
        BIOMETRY_LOCKOUT,

        /** Locked until the device credential (PIN, pattern, password) is entered. */
        BIOMETRY_LOCKOUT_PERMANENT,

        /** No biometric is enrolled. */
        BIOMETRY_NOT_ENROLLED,

        /** The device has no secure lock screen, so the Keystore makes no auth-bound keys. */
        NO_SECURE_LOCK_SCREEN,

        /** No biometric hardware, or it cannot be used now. */
        HARDWARE_UNAVAILABLE,

        /** The key was permanently invalidated: a biometric enrollment changed, or the lock screen was removed. */
        KEY_INVALIDATED,

        /** No such key or stored item on this device. */
        KEY_MISSING,

        /** The prompt ended without a usable match (no crypto object came back). */
        AUTHENTICATION_FAILED,

        /** The server refused; see [rejection]. */
        SERVER,

        /** The server could not be reached or answered something that is not the contract. */
        TRANSPORT,

        /** The call needs a session and there is none. */
        NOT_SIGNED_IN,

        /** Anything else the platform reported; see [detail]. */
        SYSTEM_FAILURE,
    }

    /** The server's stable error code, when the server refused. */
    val serverCode: String? get() = rejection?.code
}

/** A refusal as the server sends it: the HTTP status and the contract's error body. */
data class ServerRejection(val status: Int, val code: String, val message: String, val retryAfterSeconds: Int?)
