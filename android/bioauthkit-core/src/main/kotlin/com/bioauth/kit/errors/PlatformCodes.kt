package com.bioauth.kit.errors

/**
 * The codes of androidx.biometric's `BiometricPrompt` and `BiometricManager` (the same values as
 * the platform's `android.hardware.biometrics` ones), and the platform codes newer than
 * androidx.biometric 1.3.0.
 * https://developer.android.com/reference/androidx/biometric/BiometricPrompt#constants
 */
public object PlatformCodes {
    /** `ERROR_HW_UNAVAILABLE`. */
    public const val ERROR_HW_UNAVAILABLE: Int = 1

    /** `ERROR_UNABLE_TO_PROCESS`. */
    public const val ERROR_UNABLE_TO_PROCESS: Int = 2

    /** `ERROR_TIMEOUT`. */
    public const val ERROR_TIMEOUT: Int = 3

    /** `ERROR_NO_SPACE`. */
    public const val ERROR_NO_SPACE: Int = 4

    /** `ERROR_CANCELED`: the system (or `cancelAuthentication()`) ended the prompt. */
    public const val ERROR_CANCELED: Int = 5

    /** `ERROR_LOCKOUT`: 5 failed matches, about 30 s. */
    public const val ERROR_LOCKOUT: Int = 7

    /** `ERROR_VENDOR`. */
    public const val ERROR_VENDOR: Int = 8

    /** `ERROR_LOCKOUT_PERMANENT`: until the device credential is entered. */
    public const val ERROR_LOCKOUT_PERMANENT: Int = 9

    /** `ERROR_USER_CANCELED`. */
    public const val ERROR_USER_CANCELED: Int = 10

    /** `ERROR_NO_BIOMETRICS`; also `BiometricManager.BIOMETRIC_ERROR_NONE_ENROLLED`. */
    public const val ERROR_NO_BIOMETRICS: Int = 11

    /** `ERROR_HW_NOT_PRESENT`; also `BiometricManager.BIOMETRIC_ERROR_NO_HARDWARE`. */
    public const val ERROR_HW_NOT_PRESENT: Int = 12

    /** `ERROR_NEGATIVE_BUTTON`. */
    public const val ERROR_NEGATIVE_BUTTON: Int = 13

    /** `ERROR_NO_DEVICE_CREDENTIAL`. */
    public const val ERROR_NO_DEVICE_CREDENTIAL: Int = 14

    /** `ERROR_SECURITY_UPDATE_REQUIRED`. */
    public const val ERROR_SECURITY_UPDATE_REQUIRED: Int = 15

    /** API 36 `BIOMETRIC_ERROR_IDENTITY_CHECK_NOT_ACTIVE`: Identity Check is not active (the SDK never asks for it). */
    public const val ERROR_IDENTITY_CHECK_NOT_ACTIVE: Int = 20

    /** API 36 `BIOMETRIC_ERROR_NOT_ENABLED_FOR_APPS`: the user turned biometrics off for apps in Settings. */
    public const val ERROR_NOT_ENABLED_FOR_APPS: Int = 21

    /** `BiometricManager.BIOMETRIC_SUCCESS`. */
    public const val BIOMETRIC_SUCCESS: Int = 0

    /** `BiometricManager.BIOMETRIC_STATUS_UNKNOWN`: androidx cannot tell (API 28 without an enrolled fingerprint). */
    public const val BIOMETRIC_STATUS_UNKNOWN: Int = -1

    /** `BiometricManager.BIOMETRIC_ERROR_UNSUPPORTED`. */
    public const val BIOMETRIC_ERROR_UNSUPPORTED: Int = -2

    /** `BiometricManager.Authenticators.BIOMETRIC_STRONG`. */
    public const val AUTHENTICATOR_BIOMETRIC_STRONG: Int = 15

    /** `BiometricManager.Authenticators.DEVICE_CREDENTIAL`. */
    public const val AUTHENTICATOR_DEVICE_CREDENTIAL: Int = 32768
}
