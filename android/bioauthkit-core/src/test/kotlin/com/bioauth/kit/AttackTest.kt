package com.bioauth.kit

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.simulator.Attacker.Hook
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.RecordingTransport
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/** The attacker on the phone, and on the wire: what they get is nothing. */
class AttackTest {
    @Test
    fun `a hooked onAuthenticationSucceeded, with no, a forged or the app's own unauthorised crypto object, yields no signature, no token and no PIN`() = runSuspend {
        for (hook in Hook.values()) {
            val owner = Account.signedIn()
            owner.enableBiometrics()
            owner.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
            owner.client.setPIN("739154", PROMPT)
            owner.client.keepSessionBehindBiometrics(PROMPT)
            // The phone is taken; the app is relaunched under the attacker's hooks.
            owner.device.attacker.hookAuthenticationSucceeded(hook)
            val app = owner.relaunched()
            assertEquals(Code.AUTHENTICATION_FAILED, failure { app.signInWithBiometrics(PROMPT) }.code, "$hook: sign-in")
            assertEquals(Code.AUTHENTICATION_FAILED, failure { app.restoreSession(PROMPT) }.code, "$hook: stored token")
            assertEquals(Code.AUTHENTICATION_FAILED, failure { app.signInWithStoredPIN(PROMPT) }.code, "$hook: stored PIN")
            assertNull(app.sessionToken, "$hook")
        }
    }

    @Test
    fun `app storage holds no session token, no PIN and no private key`() = runSuspend {
        val owner = Account.signedIn()
        owner.enableBiometrics()
        val token = owner.client.sessionToken!!
        owner.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
        owner.client.setPIN("739154", PROMPT)
        owner.client.keepSessionBehindBiometrics(PROMPT)
        val stolen = owner.device.attacker.readAppStorage().values.joinToString("\n")
        assertFalse(stolen.contains(token))
        assertFalse(stolen.contains("739154"))
        assertFalse(stolen.contains("PRIVATE"))
    }

    @Test
    fun `a replayed biometric sign-in request is refused - the challenge was single-use`() = runSuspend {
        val owner = Account.signedIn()
        owner.enableBiometrics()
        // Someone on the wire records what the genuine app sends.
        val wire = RecordingTransport()
        val app = com.bioauth.kit.client.BioAuthClient(owner.client.configuration, owner.device.backends, wire)
        owner.device.willAnswer(Answer.Present("owner"))
        app.signInWithBiometrics(PROMPT)
        val sent: String = wire.bodies.getValue("/v1/sessions/biometric")
        val replay = RawHttp.call("POST", "/v1/sessions/biometric", JSONObject(sent))
        assertEquals(401, replay.status)
        assertEquals("challenge_invalid", replay.body.getJSONObject("error").getString("code"))
    }

    @Test
    fun `five failed matches give BIOMETRY_LOCKOUT, twenty give BIOMETRY_LOCKOUT_PERMANENT until the device credential`() = runSuspend {
        val owner = Account.signedIn()
        owner.enableBiometrics()
        owner.device.willAnswer(*Array(5) { Answer.Present("stranger") })
        assertEquals(Code.BIOMETRY_LOCKOUT, failure { owner.client.signInWithBiometrics(PROMPT) }.code)
        assertEquals(Code.BIOMETRY_LOCKOUT, failure { owner.client.signInWithBiometrics(PROMPT) }.code, "still locked")
        owner.device.prompt.advance(31)
        owner.device.willAnswer(*Array(15) { Answer.Present("stranger") })
        var last: BioAuthException? = null
        repeat(3) {
            last = failure { owner.client.signInWithBiometrics(PROMPT) }
            owner.device.prompt.advance(31)
        }
        assertEquals(Code.BIOMETRY_LOCKOUT_PERMANENT, last!!.code)
        owner.device.prompt.enterDeviceCredential()
        owner.device.willAnswer(Answer.Present("owner"))
        assertEquals(com.bioauth.kit.protocol.AuthenticationMethod.BIOMETRIC, owner.client.signInWithBiometrics(PROMPT).session.authentication.method)
    }

    @Test
    fun `the negative button and a dismissal are USER_CANCELED, no enrollment, no screen lock and no sensor are told apart`() = runSuspend {
        val owner = Account.signedIn()
        owner.enableBiometrics()
        owner.device.willAnswer(Answer.NegativeButton)
        assertEquals(Code.USER_CANCELED, failure { owner.client.signInWithBiometrics(PROMPT) }.code)
        owner.device.willAnswer(Answer.Cancel)
        assertEquals(Code.USER_CANCELED, failure { owner.client.signInWithBiometrics(PROMPT) }.code)

        val unenrolled = Account.signedIn(SimulatedDevice(enrolled = emptySet()))
        assertEquals(Code.BIOMETRY_NOT_ENROLLED, failure { unenrolled.client.enableBiometricSignIn(prompt = PROMPT) }.code)
        val noSensor = Account.signedIn(SimulatedDevice(hasBiometricHardware = false))
        assertEquals(Code.HARDWARE_UNAVAILABLE, failure { noSensor.client.enableBiometricSignIn(prompt = PROMPT) }.code)
        val unlocked = Account.signedIn().also { it.device.removeLockScreen() }
        assertEquals(Code.NO_SECURE_LOCK_SCREEN, failure { unlocked.client.enableBiometricSignIn(prompt = PROMPT) }.code)
    }
}
