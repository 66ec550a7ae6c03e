package com.bioauth.kit

import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The PIN: bound to this phone's key, usable only while unlocked, kept behind biometrics by default as on iOS. */
class PinTest {
    @Test
    fun `the PIN key cannot sign while the phone is locked - setUnlockedDeviceRequired on API 28-30 and from 35`() = runSuspend {
        for (api in listOf(28, 30, 35, 36)) {
            val account = Account.signedIn(SimulatedDevice(apiLevel = api))
            account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
            val alias = account.device.keyStore.specs.keys.single { it.contains("pin-key") }
            account.device.lock()
            assertEquals(Code.DEVICE_LOCKED, failure { account.relaunched().signInWithPIN(Account.PIN) }.code, "API $api")
            // Not the SDK's own check: the Keystore itself refuses the key (a hooked app gets nothing either).
            assertThrows(Exception::class.java, { account.device.keyStore.beginSigning(alias).sign(byteArrayOf(1)) }, "API $api")
            account.device.unlock()
            assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithPIN(Account.PIN).session.authentication.method)
        }
    }

    @Test
    fun `setting the PIN keeps it behind biometrics by default, as on iOS - one prompt, and opting out takes none`() = runSuspend {
        val account = Account.signedIn()
        account.device.willAnswer(Answer.Present("owner"))
        assertTrue(account.client.setPIN(Account.PIN, PROMPT))
        assertEquals(1, account.device.prompt.shown)
        account.device.willAnswer(Answer.Present("owner"))
        assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithStoredPIN(PROMPT).session.authentication.method)

        val other = Account.signedIn()
        assertFalse(other.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false))
        assertEquals(0, other.device.prompt.shown)
        assertEquals(Code.KEY_MISSING, failure { other.client.signInWithStoredPIN(PROMPT) }.code)
    }

    @Test
    fun `canceling the prompt when setting the PIN changes nothing, here or on the server`() = runSuspend {
        val account = Account.signedIn()
        account.device.willAnswer(Answer.Cancel)
        assertEquals(Code.USER_CANCELED, failure { account.client.setPIN(Account.PIN, PROMPT) }.code)
        assertFalse(account.client.isPINSet)
        assertEquals(Code.KEY_MISSING, failure { account.client.signInWithPIN(Account.PIN) }.code)
        val listed = RawHttp.call("GET", "/v1/biometric/registrations", token = account.client.sessionToken)
        assertEquals(0, listed.body.getJSONArray("registrations").length(), "no PIN key registered")
    }

    @Test
    fun `on a phone without biometrics the PIN is set and not kept, without a prompt`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(hasBiometricHardware = false))
        assertFalse(account.client.setPIN(Account.PIN, PROMPT))
        assertEquals(0, account.device.prompt.shown)
        assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithPIN(Account.PIN).session.authentication.method)
    }

    @Test
    fun `setting the PIN on another phone moves it there - here it is forgotten`() = runSuspend {
        val account = Account.signedIn()
        account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
        val second = Account.client(SimulatedDevice())
        second.signIn(account.username, Account.PASSWORD)
        second.setPIN("739154", PROMPT, keepBehindBiometrics = false)
        assertEquals(Code.KEY_MISSING, failure { account.client.signInWithPIN(Account.PIN) }.code)
        assertFalse(account.client.isPINSet)
    }
}
