package com.bioauth.kit

import com.bioauth.kit.client.BiometricAvailability.Biometrics
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.PlatformCodes
import com.bioauth.kit.errors.PromptErrors
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** What the device has, whether sign-in can be turned on, and why not, on every API level. */
class AvailabilityTest {
    @Test
    fun `with a screen lock and no biometric enrolled, every API level from 23 says BIOMETRY_NOT_ENROLLED, never NO_SECURE_LOCK_SCREEN`() = runSuspend {
        for (api in listOf(23, 26, 28, 29, 30, 34)) {
            val account = Account.signedIn(SimulatedDevice(apiLevel = api, enrolled = emptySet()))
            assertEquals(Code.BIOMETRY_NOT_ENROLLED, failure { account.client.enableBiometricSignIn(prompt = PROMPT) }.code, "API $api")
            assertEquals(0, account.device.prompt.shown, "API $api: no prompt")
        }
    }

    @Test
    fun `availability tells what the device has, whether sign-in can be turned on and why not, without a prompt`() = runSuspend {
        val ready = Account.signedIn().client.availability()
        assertEquals(Biometrics.READY, ready.biometrics)
        assertTrue(ready.canEnableBiometricSignIn && ready.hasSecureLockScreen && !ready.isBiometricSignInEnabled && !ready.deviceCredentialAllowed)

        val api28 = Account.signedIn(SimulatedDevice(apiLevel = 28, enrolled = emptySet())).client.availability()
        assertEquals(Biometrics.UNKNOWN, api28.biometrics, "androidx cannot tell on API 28")
        val noSensor = Account.signedIn(SimulatedDevice(hasBiometricHardware = false)).client.availability()
        assertEquals(Biometrics.NO_HARDWARE, noSensor.biometrics)
        assertEquals(Code.HARDWARE_UNAVAILABLE, noSensor.reason)
        val unlocked = Account.signedIn().also { it.device.removeLockScreen() }.client.availability()
        assertFalse(unlocked.hasSecureLockScreen || unlocked.canEnableBiometricSignIn)
        assertEquals(Code.NO_SECURE_LOCK_SCREEN, unlocked.reason)

        val enabled = Account.signedIn()
        enabled.enableBiometrics()
        assertTrue(enabled.client.availability().isBiometricSignInEnabled)
        assertEquals(1, enabled.device.prompt.shown)
    }

    @Test
    fun `API 36's NOT_ENABLED_FOR_APPS and IDENTITY_CHECK_NOT_ACTIVE have their own codes, not SYSTEM_FAILURE`() {
        assertEquals(Code.BIOMETRY_NOT_ENROLLED, PromptErrors.code(PlatformCodes.ERROR_NOT_ENABLED_FOR_APPS))
        assertEquals(Code.HARDWARE_UNAVAILABLE, PromptErrors.code(PlatformCodes.ERROR_IDENTITY_CHECK_NOT_ACTIVE))
        assertEquals(Code.SYSTEM_FAILURE, PromptErrors.code(PlatformCodes.ERROR_VENDOR))
    }

    @Test
    fun `every androidx prompt error has its code`() {
        val expected = mapOf(
            PlatformCodes.ERROR_USER_CANCELED to Code.USER_CANCELED,
            PlatformCodes.ERROR_NEGATIVE_BUTTON to Code.USER_CANCELED,
            PlatformCodes.ERROR_CANCELED to Code.USER_CANCELED,
            PlatformCodes.ERROR_LOCKOUT to Code.BIOMETRY_LOCKOUT,
            PlatformCodes.ERROR_LOCKOUT_PERMANENT to Code.BIOMETRY_LOCKOUT_PERMANENT,
            PlatformCodes.ERROR_NO_BIOMETRICS to Code.BIOMETRY_NOT_ENROLLED,
            PlatformCodes.ERROR_NO_DEVICE_CREDENTIAL to Code.NO_SECURE_LOCK_SCREEN,
            PlatformCodes.ERROR_HW_NOT_PRESENT to Code.HARDWARE_UNAVAILABLE,
            PlatformCodes.ERROR_HW_UNAVAILABLE to Code.HARDWARE_UNAVAILABLE,
            PlatformCodes.ERROR_SECURITY_UPDATE_REQUIRED to Code.HARDWARE_UNAVAILABLE,
            PlatformCodes.ERROR_TIMEOUT to Code.AUTHENTICATION_FAILED,
            PlatformCodes.ERROR_UNABLE_TO_PROCESS to Code.AUTHENTICATION_FAILED,
            PlatformCodes.ERROR_NO_SPACE to Code.SYSTEM_FAILURE,
        )
        for ((platform, code) in expected) assertEquals(code, PromptErrors.code(platform), "error $platform")
    }

    @Test
    fun `on API 28 with no fingerprint enrolled androidx cannot tell, and the Keystore's refusal is read as no biometric enrolled`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(apiLevel = 28, enrolled = emptySet()))
        assertEquals(PlatformCodes.BIOMETRIC_STATUS_UNKNOWN, account.device.prompt.canAuthenticate(PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG))
        assertEquals(Code.BIOMETRY_NOT_ENROLLED, failure { account.client.enableBiometricSignIn(prompt = PROMPT) }.code)
        assertTrue(account.device.keyStore.generated.isNotEmpty(), "generation itself decided")
        account.device.enrollBiometric("owner")
        account.device.willAnswer(Answer.Present("owner"))
        account.client.enableBiometricSignIn(prompt = PROMPT)
    }
}
