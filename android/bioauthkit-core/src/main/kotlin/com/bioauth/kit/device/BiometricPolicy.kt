package com.bioauth.kit.device

/**
 * What unlocks the biometric sign-in key and the secrets kept behind biometrics. The default,
 * [BIOMETRICS_ONLY], is the strict one; the other is an explicit opt-in.
 */
public enum class BiometricPolicy {
    /**
     * A strong biometric match per use, by the biometrics enrolled now: any enrollment change
     * invalidates the key (`KEY_INVALIDATED`). Default.
     */
    BIOMETRICS_ONLY,

    /**
     * A strong biometric match or the device credential (PIN, pattern, password) per use, on API
     * 30+ (`setUserAuthenticationParameters(0, AUTH_BIOMETRIC_STRONG | AUTH_DEVICE_CREDENTIAL)`):
     * whoever knows the lock screen can use the key, and an enrollment change does not invalidate
     * it. Below API 30 the platform has no per-use device credential, so this acts as [BIOMETRICS_ONLY].
     */
    BIOMETRICS_OR_DEVICE_CREDENTIAL,
    ;

    /** Whether this policy lets the device credential unlock a key on [apiLevel]. */
    public fun allowsDeviceCredential(apiLevel: Int): Boolean =
        this == BIOMETRICS_OR_DEVICE_CREDENTIAL && apiLevel >= KeySpecs.API_AUTHENTICATION_PARAMETERS
}
