package com.bioauth.kit

import com.bioauth.kit.client.BiometricPolicy
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeySpec.Authentication
import com.bioauth.kit.device.KeySpecs
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Test

/** The key spec per API level: what each Android version can enforce, and the fallbacks below it. */
class KeySpecTest {
    private fun biometric(api: Int, policy: BiometricPolicy = BiometricPolicy.BIOMETRICS_ONLY) =
        KeySpecs.biometric("k", KeySpec.Kind.SIGNING_P256, api, policy, strongBox = true)

    @Test
    fun `API 30+ is per use with AUTH_BIOMETRIC_STRONG, 24-29 validity -1 invalidated by enrollment, 23 validity -1 without that call`() {
        for (api in 30..36) {
            assertEquals(Authentication.STRONG_BIOMETRIC_PER_USE, biometric(api).authentication, "API $api")
            assertEquals(true, biometric(api).invalidatedByBiometricEnrollment, "API $api")
        }
        for (api in 24..29) {
            assertEquals(Authentication.BIOMETRIC_PER_USE_LEGACY, biometric(api).authentication, "API $api")
            assertEquals(true, biometric(api).invalidatedByBiometricEnrollment, "API $api")
        }
        assertEquals(Authentication.BIOMETRIC_PER_USE_LEGACY, biometric(23).authentication)
        assertEquals(null, biometric(23).invalidatedByBiometricEnrollment, "setInvalidatedByBiometricEnrollment is API 24")
    }

    @Test
    fun `StrongBox is asked for from API 28 only`() {
        for (api in 23..27) assertFalse(biometric(api).strongBox, "API $api")
        for (api in 28..34) assertEquals(true, biometric(api).strongBox, "API $api")
        assertFalse(KeySpecs.biometric("k", KeySpec.Kind.AES_GCM_256, 34, BiometricPolicy.BIOMETRICS_ONLY, strongBox = false).strongBox)
    }

    @Test
    fun `the PIN key needs no match and an unlocked device on API 28-30 and from 35, not on Android 12-14 (API 31-34)`() {
        for (api in 23..27) assertEquals(false, KeySpecs.pin("p", api, strongBox = true).unlockedDeviceRequired, "API $api")
        for (api in 23..36) {
            val spec = KeySpecs.pin("p", api, strongBox = true)
            assertEquals(api in 28..30 || api >= 35, spec.unlockedDeviceRequired, "API $api")
            assertEquals(null, spec.authentication)
        }
        assertFalse(biometric(34).unlockedDeviceRequired)
    }

    @Test
    fun `the device-credential policy is per use with AUTH_BIOMETRIC_STRONG or AUTH_DEVICE_CREDENTIAL on API 30+, biometrics only below`() {
        val policy = BiometricPolicy.BIOMETRICS_OR_DEVICE_CREDENTIAL
        assertEquals(Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE, biometric(30, policy).authentication)
        assertEquals(false, biometric(30, policy).invalidatedByBiometricEnrollment, "bound to the lock screen, not the enrollment")
        assertEquals(biometric(29), biometric(29, policy))
        assertEquals(biometric(23), biometric(23, policy))
    }

    @Test
    fun `the attestation challenge goes into signing keys from API 24 - setAttestationChallenge - and never on API 23 or into AES keys`() {
        val challenge = ByteArray(32) { 1 }
        val policy = BiometricPolicy.BIOMETRICS_ONLY
        assertNull(KeySpecs.biometric("k", KeySpec.Kind.SIGNING_P256, 23, policy, strongBox = false, challenge).attestationChallenge)
        assertNull(KeySpecs.pin("p", 23, strongBox = false, attestationChallenge = challenge).attestationChallenge)
        for (api in 24..36) {
            assertSame(challenge, KeySpecs.biometric("k", KeySpec.Kind.SIGNING_P256, api, policy, strongBox = true, challenge).attestationChallenge)
            assertSame(challenge, KeySpecs.pin("p", api, strongBox = true, attestationChallenge = challenge).attestationChallenge)
            assertNull(KeySpecs.biometric("v", KeySpec.Kind.AES_GCM_256, api, policy, strongBox = true, challenge).attestationChallenge)
        }
    }
}
