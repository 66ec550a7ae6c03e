package com.bioauth.kit

import com.bioauth.kit.client.BiometricPolicy
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.PlatformCodes
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/** Biometrics only by default; the device credential only by explicit opt-in, and only where the platform allows it per use. */
class PolicyTest {
    @Test
    fun `device credential fallback is off by default - the prompt offers no credential and the credential unlocks nothing`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        assertEquals(PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG, account.device.prompt.lastRequest!!.allowedAuthenticators)
        assertEquals(PROMPT.negativeButton, account.device.prompt.lastRequest!!.negativeButton)
        account.device.willAnswer(Answer.DeviceCredential)
        assertEquals(Code.USER_CANCELED, failure { account.client.signInWithBiometrics(PROMPT) }.code)
    }

    @Test
    fun `device credential only when opted in, on API 30+ - it signs in and the key survives an enrollment change`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(apiLevel = 30), BiometricPolicy.BIOMETRICS_OR_DEVICE_CREDENTIAL)
        account.enableBiometrics()
        val request = account.device.prompt.lastRequest!!
        assertEquals(PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG or PlatformCodes.AUTHENTICATOR_DEVICE_CREDENTIAL, request.allowedAuthenticators)
        assertNull(request.negativeButton, "androidx refuses a negative button with the device credential")
        account.device.willAnswer(Answer.DeviceCredential)
        assertEquals(AuthenticationMethod.BIOMETRIC, account.client.signInWithBiometrics(PROMPT).session.authentication.method)
        account.device.enrollBiometric("someone else")
        account.device.willAnswer(Answer.Present("owner"))
        account.client.signInWithBiometrics(PROMPT)
    }

    @Test
    fun `below API 30 the opt-in acts as biometrics only - the platform has no per-use device credential`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(apiLevel = 29), BiometricPolicy.BIOMETRICS_OR_DEVICE_CREDENTIAL)
        account.enableBiometrics()
        assertEquals(PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG, account.device.prompt.lastRequest!!.allowedAuthenticators)
        assertEquals(false, account.client.availability().deviceCredentialAllowed)
        account.device.enrollBiometric("someone else")
        assertEquals(Code.KEY_INVALIDATED, failure { account.client.signInWithBiometrics(PROMPT) }.code)
    }
}
