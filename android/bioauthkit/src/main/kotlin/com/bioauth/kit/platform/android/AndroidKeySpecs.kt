package com.bioauth.kit.platform.android

import android.os.Build
import android.security.keystore.KeyGenParameterSpec
import android.security.keystore.KeyProperties
import com.bioauth.kit.device.KeySpec

/** [KeySpec] as a `KeyGenParameterSpec.Builder`, call for call; each newer call behind its `SDK_INT` check (Lint's NewApi). */
internal object AndroidKeySpecs {
    fun builder(spec: KeySpec, purposes: Int): KeyGenParameterSpec.Builder {
        val builder = KeyGenParameterSpec.Builder(spec.alias, purposes)
        builder.setUserAuthenticationRequired(spec.authentication != null)
        when (spec.authentication) {
            null -> Unit
            KeySpec.Authentication.BIOMETRIC_PER_USE_LEGACY -> everyUseLegacy(builder)
            KeySpec.Authentication.STRONG_BIOMETRIC_PER_USE ->
                if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R) {
                    builder.setUserAuthenticationParameters(0, KeyProperties.AUTH_BIOMETRIC_STRONG)
                } else {
                    throw IllegalStateException("setUserAuthenticationParameters needs API 30")
                }
            KeySpec.Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE ->
                if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R) {
                    builder.setUserAuthenticationParameters(0, KeyProperties.AUTH_BIOMETRIC_STRONG or KeyProperties.AUTH_DEVICE_CREDENTIAL)
                } else {
                    throw IllegalStateException("setUserAuthenticationParameters needs API 30")
                }
        }
        val invalidated = spec.invalidatedByBiometricEnrollment
        if (invalidated != null && Build.VERSION.SDK_INT >= Build.VERSION_CODES.N) builder.setInvalidatedByBiometricEnrollment(invalidated)
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) {
            builder.setIsStrongBoxBacked(spec.strongBox)
            builder.setUnlockedDeviceRequired(spec.unlockedDeviceRequired)
        }
        val challenge = spec.attestationChallenge
        if (challenge != null && Build.VERSION.SDK_INT >= Build.VERSION_CODES.N) builder.setAttestationChallenge(challenge)
        return builder
    }

    /** API 23-29's only way to ask for a match per use (deprecated in API 30, where the SDK does not call it). */
    @Suppress("DEPRECATION")
    private fun everyUseLegacy(builder: KeyGenParameterSpec.Builder) {
        builder.setUserAuthenticationValidityDurationSeconds(-1)
    }
}
