package com.bioauth.kit.client

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.PlatformCodes
import com.bioauth.kit.errors.PromptErrors

/** Whether keys behind biometrics can be made here, from the lock screen and androidx's `BiometricManager`. */
internal object Availability {
    /**
     * Why a key behind biometrics cannot be made, or `null` when it can (or androidx cannot tell:
     * `BIOMETRIC_STATUS_UNKNOWN` on API 28, where key generation itself then decides).
     */
    fun whyNot(device: DeviceBackends, authenticators: Int): Code? {
        if (!device.info.isDeviceSecure()) return Code.NO_SECURE_LOCK_SCREEN
        return when (val status = device.prompt.canAuthenticate(authenticators)) {
            PlatformCodes.BIOMETRIC_SUCCESS, PlatformCodes.BIOMETRIC_STATUS_UNKNOWN -> null
            else -> PromptErrors.code(status)
        }
    }

    /** Throws when [whyNot] has a reason. */
    fun requireUsable(device: DeviceBackends, authenticators: Int) {
        whyNot(device, authenticators)?.let { throw BioAuthException(it, "biometric keys cannot be made on this device now") }
    }

    /** What the device has, for [BiometricAvailability]. */
    fun status(code: Int): BiometricAvailability.Biometrics = when (code) {
        PlatformCodes.BIOMETRIC_SUCCESS -> BiometricAvailability.Biometrics.READY
        PlatformCodes.BIOMETRIC_STATUS_UNKNOWN -> BiometricAvailability.Biometrics.UNKNOWN
        PlatformCodes.ERROR_NO_BIOMETRICS -> BiometricAvailability.Biometrics.NONE_ENROLLED
        PlatformCodes.ERROR_HW_NOT_PRESENT, PlatformCodes.BIOMETRIC_ERROR_UNSUPPORTED -> BiometricAvailability.Biometrics.NO_HARDWARE
        else -> BiometricAvailability.Biometrics.UNAVAILABLE
    }
}
