package com.bioauth.kit

import com.bioauth.kit.client.ReconciliationAction
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The mission's flow from a Kotlin app, against a real `bioauth serve` over loopback. */
class ClientFlowTest {
    @Test
    fun `password, enable biometrics (one prompt), relaunch, biometric sign-in (one prompt), sign out`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        assertEquals("active", registration.status)
        assertEquals(1, account.device.prompt.shown)
        account.client.signOut()
        assertNull(account.client.sessionToken)

        val app = account.relaunched()
        assertTrue(app.isBiometricSignInEnabled())
        account.device.willAnswer(Answer.Present("owner"))
        val signedIn = app.signInWithBiometrics(PROMPT)
        assertEquals("biometric", signedIn.session.authentication.method)
        assertEquals(registration.id, signedIn.session.authentication.registrationId)
        assertEquals(2, account.device.prompt.shown)
        assertNotNull(app.sessionToken)
    }

    @Test
    fun `the Keystore key is P-256 behind strong biometrics, invalidated by enrollment, per-use on API 30+ and validity -1 below`() = runSuspend {
        for ((api, rule) in listOf(34 to "EveryUseStrongBiometric", 29 to "EveryUseLegacy")) {
            val account = Account.signedIn(com.bioauth.kit.simulator.SimulatedDevice(apiLevel = api))
            account.enableBiometrics()
            val spec = account.device.keyStore.specs.values.single { it.alias.contains("device-key") }
            assertEquals(com.bioauth.kit.device.KeySpec.Kind.SIGNING_P256, spec.kind)
            assertTrue(spec.userAuthenticationRequired && spec.invalidatedByBiometricEnrollment)
            assertEquals(rule, spec.authentication!!::class.simpleName)
        }
    }

    @Test
    fun `StrongBox is used when the device has one, and the TEE otherwise`() = runSuspend {
        for (strongBox in listOf(true, false)) {
            val account = Account.signedIn(com.bioauth.kit.simulator.SimulatedDevice(hasStrongBox = strongBox))
            account.enableBiometrics()
            assertEquals(strongBox, account.device.keyStore.specs.values.single { it.alias.contains("device-key") }.strongBox)
        }
    }

    @Test
    fun `the session token kept behind biometrics comes back after one prompt, canceling gives USER_CANCELED`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        val token = account.client.sessionToken
        account.device.willAnswer(Answer.Present("owner"))
        account.client.keepSessionBehindBiometrics(PROMPT)
        assertFalse(account.device.storage.dump().values.any { it.contains(token!!) }, "the token is stored only encrypted")
        val app = account.relaunched()
        account.device.willAnswer(Answer.Cancel)
        assertEquals(Code.USER_CANCELED, failure { app.restoreSession(PROMPT) }.code)
        account.device.willAnswer(Answer.Present("owner"))
        app.restoreSession(PROMPT)
        assertEquals(token, app.sessionToken)
    }

    @Test
    fun `an enrollment change invalidates the key - KEY_INVALIDATED, then the password sign-in revokes the stale registration on the server`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        account.client.signOut()
        account.device.enrollBiometric("someone else")
        val app = account.relaunched()
        account.device.willAnswer(Answer.Present("owner"))
        assertEquals(Code.KEY_INVALIDATED, failure { app.signInWithBiometrics(PROMPT) }.code)
        assertFalse(app.isBiometricSignInEnabled())
        val signedIn = app.signIn(account.username, Account.PASSWORD)
        assertEquals(ReconciliationAction.ServerRegistrationRevoked(registration.id, "key_invalidated"), signedIn.reconciliation)
        // The server no longer issues challenges for it: revoked, not just forgotten here.
        val again = Account.client(account.device)
        assertEquals(Code.KEY_MISSING, failure { again.signInWithBiometrics(PROMPT) }.code)
    }

    @Test
    fun `removing the screen lock invalidates the key`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.device.removeLockScreen()
        account.device.willAnswer(Answer.Present("owner"))
        assertEquals(Code.KEY_INVALIDATED, failure { account.client.signInWithBiometrics(PROMPT) }.code)
    }

    @Test
    fun `the device-bound PIN signs in with this phone's PIN key, kept behind biometrics it needs one prompt`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.device.willAnswer(Answer.Present("owner"))
        account.client.setPIN("482913", keepBehindBiometrics = PROMPT, reauthentication = com.bioauth.kit.client.Reauthentication.Password(Account.PASSWORD))
        val app = account.relaunched()
        assertEquals("pin", app.signInWithPIN("482913").session.authentication.method)
        val wrong = failure { app.signInWithPIN("111999") }
        assertEquals("invalid_credentials", wrong.serverCode)
        account.device.willAnswer(Answer.Present("owner"))
        assertEquals("pin", app.signInWithStoredPIN(PROMPT).session.authentication.method)
        // Another phone knows the PIN but holds no PIN key: nothing to sign with.
        val other = Account.client(com.bioauth.kit.simulator.SimulatedDevice())
        assertEquals(Code.KEY_MISSING, failure { other.signInWithPIN("482913") }.code)
    }

    @Test
    fun `disabling revokes the registration on the server`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.client.disableBiometricSignIn()
        assertFalse(account.client.isBiometricSignInEnabled())
        val listed = RawHttp.call("GET", "/v1/biometric/registrations", token = account.client.sessionToken)
        assertEquals(0, listed.body.getJSONArray("registrations").length())
    }

    @Test
    fun `reconcile removes the local key of a registration the server no longer has`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        RawHttp.call("DELETE", "/v1/biometric/registrations/${registration.id}", token = account.client.sessionToken)
        assertEquals(ReconciliationAction.LocalRegistrationRemoved(registration.id), account.client.reconcile())
        assertFalse(account.client.isBiometricSignInEnabled())
    }

    @Test
    fun `reconcile revokes the server registration of a key this phone no longer has`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        val alias = account.device.keyStore.specs.keys.single { it.contains("device-key") }
        account.device.keyStore.delete(alias)
        assertEquals(ReconciliationAction.ServerRegistrationRevoked(registration.id, "key_missing"), account.client.reconcile())
        val listed = RawHttp.call("GET", "/v1/biometric/registrations", token = account.client.sessionToken)
        assertEquals(0, listed.body.getJSONArray("registrations").length())
    }

    @Test
    fun `re-authenticating with biometrics takes one prompt, changing the password ends every other session, and so does sign-out everywhere else`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        val elsewhere = Account.client(com.bioauth.kit.simulator.SimulatedDevice())
        elsewhere.signIn(account.username, Account.PASSWORD)
        val shown = account.device.prompt.shown
        account.device.willAnswer(Answer.Present("owner"))
        account.client.reauthenticateWithBiometrics(PROMPT)
        assertEquals(shown + 1, account.device.prompt.shown)
        account.client.changePassword(Account.PASSWORD, "new horse battery staple")
        assertEquals(401, RawHttp.call("GET", "/v1/sessions/current", token = elsewhere.sessionToken).status)
        assertEquals(200, RawHttp.call("GET", "/v1/sessions/current", token = account.client.sessionToken).status)

        val third = Account.client(com.bioauth.kit.simulator.SimulatedDevice())
        third.signIn(account.username, "new horse battery staple")
        account.client.signOutEverywhereElse()
        assertEquals(401, RawHttp.call("GET", "/v1/sessions/current", token = third.sessionToken).status)
    }
}
