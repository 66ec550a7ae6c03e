package com.bioauth.kit.errors

import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.PlatformCodes as P

/** The one place a `BiometricPrompt` error or a `BiometricManager` status becomes a [Code]. */
internal object PromptErrors {
    /** `onAuthenticationError(code, message)`'s code, or a `canAuthenticate` status that is not success. */
    fun code(platformCode: Int): Code = when (platformCode) {
        P.ERROR_USER_CANCELED, P.ERROR_NEGATIVE_BUTTON, P.ERROR_CANCELED -> Code.USER_CANCELED
        P.ERROR_LOCKOUT -> Code.BIOMETRY_LOCKOUT
        P.ERROR_LOCKOUT_PERMANENT -> Code.BIOMETRY_LOCKOUT_PERMANENT
        P.ERROR_NO_BIOMETRICS, P.ERROR_NOT_ENABLED_FOR_APPS -> Code.BIOMETRY_NOT_ENROLLED
        P.ERROR_NO_DEVICE_CREDENTIAL -> Code.NO_SECURE_LOCK_SCREEN
        P.ERROR_HW_NOT_PRESENT, P.ERROR_HW_UNAVAILABLE, P.ERROR_SECURITY_UPDATE_REQUIRED, P.ERROR_IDENTITY_CHECK_NOT_ACTIVE,
        P.BIOMETRIC_ERROR_UNSUPPORTED -> Code.HARDWARE_UNAVAILABLE
        P.ERROR_TIMEOUT, P.ERROR_UNABLE_TO_PROCESS -> Code.AUTHENTICATION_FAILED
        else -> Code.SYSTEM_FAILURE
    }

    /** The exception for a prompt that ended with [platformCode]. */
    fun prompt(platformCode: Int, message: String): BioAuthException =
        BioAuthException(code(platformCode), "BiometricPrompt error $platformCode: $message")
}
