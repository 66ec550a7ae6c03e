package com.bioauth.kit.device

/** androidx.biometric's `BiometricPrompt` and `BiometricManager`, call for call. */
public interface BiometricPromptBackend {
    /** `BiometricManager.canAuthenticate(authenticators)`: `BIOMETRIC_SUCCESS` or a status code (see `PlatformCodes`). */
    public fun canAuthenticate(authenticators: Int): Int

    /**
     * `BiometricPrompt.authenticate(request, CryptoObject(operation))`. [onEnd] is called once, with
     * the success result's crypto object (mapped back to the operation it wraps, or `null`) or the
     * error code `onAuthenticationError` got, or [PromptOutcome.NotShown] when `authenticate` would
     * not show it: no attached activity, or one whose fragment manager has saved its state (the
     * user left the app; androidx's `BiometricPrompt.authenticateInternal` then returns without
     * ever calling back). The handle's `cancel` is `cancelAuthentication()`.
     */
    public fun show(operation: KeyOperation, request: PromptRequest, onEnd: (PromptOutcome) -> Unit): PromptHandle
}

/** A prompt on screen. */
public fun interface PromptHandle {
    /** `BiometricPrompt.cancelAuthentication()`: dismisses the prompt. */
    public fun cancel()
}

/** Everything `BiometricPrompt.PromptInfo` is built from, as the SDK decided it. */
public data class PromptRequest(
    /** `setTitle`. */
    val title: String,
    /** `setSubtitle`. */
    val subtitle: String?,
    /** `setDescription`. */
    val description: String?,
    /** `setNegativeButtonText`; `null` exactly when the device credential is allowed (androidx refuses both). */
    val negativeButton: String?,
    /** `setAllowedAuthenticators`: `BIOMETRIC_STRONG`, or `BIOMETRIC_STRONG | DEVICE_CREDENTIAL`. */
    val allowedAuthenticators: Int,
    /**
     * `setConfirmationRequired`: after a passive match (a face) the user still taps to confirm. Set
     * for a confirmation's approval, so a glance at the phone approves nothing; a hint the platform
     * may ignore for a modality that needs a touch anyway (a fingerprint).
     */
    val confirmationRequired: Boolean = false,
)

/** How a prompt ended. */
public sealed class PromptOutcome {
    /** `onAuthenticationSucceeded`, with the result's crypto object as the operation it wraps (`null`: none, or not this call's). */
    public class Succeeded(
        /** The operation the result's `getCryptoObject()` wraps. */
        public val operation: KeyOperation?,
    ) : PromptOutcome()

    /** Not shown, and never will be: no activity to show it over, or one the user left ([reason] says which). */
    public class NotShown(
        /** Words for logs. */
        public val reason: String,
    ) : PromptOutcome()

    /** `onAuthenticationError(code, message)`. */
    public class Failed(
        /** The androidx error code (`BiometricPrompt.ERROR_*`). */
        public val errorCode: Int,
        /** The platform's message. */
        public val message: String,
    ) : PromptOutcome()
}
