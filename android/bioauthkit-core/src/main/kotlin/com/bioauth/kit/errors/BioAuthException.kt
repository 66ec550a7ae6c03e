package com.bioauth.kit.errors

import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ServerErrorCode

/**
 * Every failure of the SDK: a [code] an app switches on (keep an `else` branch: codes may be
 * added), the server's [rejection] when the server refused, and a [detail] for logs. A cancelled
 * coroutine ends with Kotlin's `CancellationException` instead, as every suspend call does.
 * docs/BIOAUTHKIT-ANDROID.md says what an app should do for each code.
 */
public class BioAuthException(
    /** What went wrong. */
    public val code: Code,
    /** Words for logs. */
    public val detail: String? = null,
    /** The server's refusal, when [code] is [Code.SERVER]. */
    public val rejection: ServerRejection? = null,
    cause: Throwable? = null,
    /**
     * The platform said the failure is transient (`KeyStoreException.isTransientFailure()`, API
     * 33+): the same call may succeed when tried again later.
     */
    public val isTransient: Boolean = false,
    /** With [Code.CONFIRMATION_REFUSED]: the rule the confirmation's details broke (its code and field). */
    public val confirmationProblem: ConfirmationRules.Problem? = null,
) : Exception(detail?.let { "${code.name}: $it" } ?: code.name, cause) {
    /** What went wrong, in the words of the platform and the contract. */
    public enum class Code {
        /** The user dismissed the prompt or pressed its negative button. */
        USER_CANCELED,

        /** Too many failed matches: biometrics are locked for a while (about 30 s). */
        BIOMETRY_LOCKOUT,

        /** Locked until the device credential (PIN, pattern, password) is entered. */
        BIOMETRY_LOCKOUT_PERMANENT,

        /** No (strong) biometric is enrolled, or biometrics are turned off for apps (API 36). */
        BIOMETRY_NOT_ENROLLED,

        /** The device has no secure lock screen, so the Keystore makes no keys behind biometrics. */
        NO_SECURE_LOCK_SCREEN,

        /** No biometric hardware, or it cannot be used now. */
        HARDWARE_UNAVAILABLE,

        /** The key was permanently invalidated: a biometric enrollment changed, or the lock screen was removed. */
        KEY_INVALIDATED,

        /** Not enabled on this device, or its key or stored secret is gone. */
        KEY_MISSING,

        /**
         * The prompt could not be shown: no `FragmentActivity` is attached, or the user left the
         * app (androidx drops a prompt asked for after `onSaveInstanceState`). Nothing changed;
         * call again once the activity is back.
         */
        PROMPT_NOT_SHOWN,

        /** The prompt ended without a usable match, or the Keystore refused the use. */
        AUTHENTICATION_FAILED,

        /** The PIN key works only while the phone is unlocked (API 28-30 and 35+: `KeySpecs.pinKeyUnlockedDeviceOnly`). */
        DEVICE_LOCKED,

        /**
         * The Keystore refused the PIN key as locked although the screen is unlocked (keystore2's
         * `LOCKED` on Android 12-14 after an unlock by a class 1 or 2 biometric or a trust agent):
         * a key made with `setUnlockedDeviceRequired` on Android 9-11 before an update. It works
         * again after an unlock with the PIN, pattern or password; nothing is lost.
         */
        KEYSTORE_LOCKED,

        /**
         * A confirmation's details break `ConfirmationRules` or are of a kind this SDK does not
         * know: nothing was shown, signed or sent; [confirmationProblem] says which rule.
         */
        CONFIRMATION_REFUSED,

        /** The server refused; see [rejection]. */
        SERVER,

        /** The server could not be reached or answered something that is not the contract. */
        TRANSPORT,

        /** The call needs a session and there is none. */
        NOT_SIGNED_IN,

        /** Anything else the platform reported; see [detail]. */
        SYSTEM_FAILURE,
    }

    /** The server's error code, when the server refused. */
    public val serverCode: ServerErrorCode? get() = rejection?.code
}
