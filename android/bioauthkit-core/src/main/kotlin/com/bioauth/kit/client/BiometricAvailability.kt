package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException

/** What this device offers for biometric sign-in, read without a prompt (`BioAuthClient.availability()`). */
public data class BiometricAvailability(
    /** `Build.VERSION.SDK_INT`. */
    val apiLevel: Int,
    /** Whether a PIN, pattern or password protects the device: keys behind biometrics need one. */
    val hasSecureLockScreen: Boolean,
    /** What androidx's `BiometricManager.canAuthenticate(BIOMETRIC_STRONG)` says. */
    val biometrics: Biometrics,
    /** Whether the configured policy lets the device credential unlock keys here (API 30+ only). */
    val deviceCredentialAllowed: Boolean,
    /** Whether `enableBiometricSignIn` can make its key now. */
    val canEnableBiometricSignIn: Boolean,
    /** Why it cannot, when it cannot. */
    val reason: BioAuthException.Code?,
    /** Whether biometric sign-in is enabled here and its key is usable (found by `initSign`, not by the alias). */
    val isBiometricSignInEnabled: Boolean,
) {
    /** Strong biometrics on this device. */
    public enum class Biometrics {
        /** Enrolled and usable. */
        READY,

        /** Hardware, nothing enrolled. */
        NONE_ENROLLED,

        /** No biometric hardware. */
        NO_HARDWARE,

        /** Present but not usable now (busy, a security update needed, turned off for apps). */
        UNAVAILABLE,

        /** androidx cannot tell (API 28 without an enrolled fingerprint); trying to make a key decides. */
        UNKNOWN,
    }
}
