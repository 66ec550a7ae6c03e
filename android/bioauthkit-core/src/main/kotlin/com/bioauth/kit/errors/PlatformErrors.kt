package com.bioauth.kit.errors

import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.errors.BioAuthException.Code

/**
 * The one place a platform report becomes a [BioAuthException]: `BiometricPrompt`'s and
 * `BiometricManager`'s error codes, and the Keystore's exceptions.
 *
 * Codes as android.hardware.biometrics.BiometricPrompt and BiometricManager define them
 * (https://developer.android.com/reference/android/hardware/biometrics/BiometricPrompt#constants).
 */
object PlatformErrors {
    const val ERROR_HW_UNAVAILABLE = 1
    const val ERROR_UNABLE_TO_PROCESS = 2
    const val ERROR_TIMEOUT = 3
    const val ERROR_NO_SPACE = 4
    const val ERROR_CANCELED = 5
    const val ERROR_LOCKOUT = 7
    const val ERROR_VENDOR = 8
    const val ERROR_LOCKOUT_PERMANENT = 9
    const val ERROR_USER_CANCELED = 10
    const val ERROR_NO_BIOMETRICS = 11
    const val ERROR_HW_NOT_PRESENT = 12

    /**
     * The negative button. The platform prompt reports it through the listener given to
     * `setNegativeButton`, not as an error code; the Android layer reports that as this code, the
     * value androidx.biometric gives `ERROR_NEGATIVE_BUTTON`.
     */
    const val ERROR_NEGATIVE_BUTTON = 13
    const val ERROR_NO_DEVICE_CREDENTIAL = 14
    const val ERROR_SECURITY_UPDATE_REQUIRED = 15

    /** `BiometricManager.BIOMETRIC_SUCCESS`. */
    const val BIOMETRIC_SUCCESS = 0

    /** `BiometricManager.Authenticators.BIOMETRIC_STRONG`. */
    const val AUTHENTICATORS_BIOMETRIC_STRONG = 15

    /** A prompt's `onAuthenticationError` code. */
    fun prompt(code: Int, message: String): BioAuthException = when (code) {
        ERROR_USER_CANCELED, ERROR_NEGATIVE_BUTTON, ERROR_CANCELED -> BioAuthException(Code.USER_CANCELED, message)
        ERROR_LOCKOUT -> BioAuthException(Code.BIOMETRY_LOCKOUT, message)
        ERROR_LOCKOUT_PERMANENT -> BioAuthException(Code.BIOMETRY_LOCKOUT_PERMANENT, message)
        ERROR_NO_BIOMETRICS -> BioAuthException(Code.BIOMETRY_NOT_ENROLLED, message)
        ERROR_NO_DEVICE_CREDENTIAL -> BioAuthException(Code.NO_SECURE_LOCK_SCREEN, message)
        ERROR_HW_NOT_PRESENT, ERROR_HW_UNAVAILABLE, ERROR_SECURITY_UPDATE_REQUIRED -> BioAuthException(Code.HARDWARE_UNAVAILABLE, message)
        ERROR_TIMEOUT, ERROR_UNABLE_TO_PROCESS -> BioAuthException(Code.AUTHENTICATION_FAILED, message)
        else -> BioAuthException(Code.SYSTEM_FAILURE, "BiometricPrompt error $code: $message")
    }

    /** `BiometricManager.canAuthenticate(BIOMETRIC_STRONG)`'s answer: `null` when biometrics can be used. */
    fun availability(code: Int): BioAuthException? = when (code) {
        BIOMETRIC_SUCCESS -> null
        ERROR_NO_BIOMETRICS -> BioAuthException(Code.BIOMETRY_NOT_ENROLLED, "no strong biometric is enrolled")
        else -> prompt(code, "biometrics cannot be used now")
    }

    /** A Keystore exception, translated by the Android layer to its [KeystoreFailure.Kind]. */
    fun keystore(failure: KeystoreFailure): BioAuthException = when (failure.kind) {
        KeystoreFailure.Kind.KEY_PERMANENTLY_INVALIDATED -> BioAuthException(Code.KEY_INVALIDATED, "the key was permanently invalidated", cause = failure)
        KeystoreFailure.Kind.USER_NOT_AUTHENTICATED, KeystoreFailure.Kind.OPERATION_REFUSED ->
            BioAuthException(Code.AUTHENTICATION_FAILED, "the Keystore refused: no match authorised this use", cause = failure)
        KeystoreFailure.Kind.NO_SECURE_LOCK_SCREEN -> BioAuthException(Code.NO_SECURE_LOCK_SCREEN, cause = failure)
        KeystoreFailure.Kind.KEY_MISSING -> BioAuthException(Code.KEY_MISSING, cause = failure)
        KeystoreFailure.Kind.STRONGBOX_UNAVAILABLE, KeystoreFailure.Kind.OTHER ->
            BioAuthException(Code.SYSTEM_FAILURE, "Keystore: ${failure.cause ?: failure.kind}", cause = failure)
    }
}
