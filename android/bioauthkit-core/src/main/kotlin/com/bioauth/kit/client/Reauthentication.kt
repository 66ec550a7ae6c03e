package com.bioauth.kit.client

/**
 * How the client proves a recent sign-in when the server asks for one before a credential change
 * (`403 reauthentication_required`: registering a device key, setting a PIN, changing the
 * password). The client tries the call first, re-authenticates only when asked, and retries once.
 * The client runs one call at a time: `ask` must not call the client.
 */
public sealed class Reauthentication {
    /** Sign a fresh challenge with this device's biometric key: one prompt with [prompt]. */
    public data class Biometrics(
        /** The prompt's text. */
        val prompt: PromptText,
    ) : Reauthentication()

    /** Ask the app for the password, only when needed; `null` means the user declined (`USER_CANCELED`). */
    public class Password(
        /** Asks the user. */
        public val ask: suspend () -> String?,
    ) : Reauthentication()

    /** Biometrics when biometric sign-in is enabled and usable here, else the password. */
    public class BiometricsOrPassword(
        /** The prompt's text. */
        public val prompt: PromptText,
        /** Asks the user for the password. */
        public val ask: suspend () -> String?,
    ) : Reauthentication()
}
