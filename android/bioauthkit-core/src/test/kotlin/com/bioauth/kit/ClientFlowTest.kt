package com.bioauth.kit

import com.bioauth.kit.client.LocalKeyLoss
import com.bioauth.kit.client.Reauthentication
import com.bioauth.kit.client.ReconciliationAction
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.failure
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
        assertEquals(Registration.Status.ACTIVE, registration.status)
        assertEquals(Registration.Kind.BIOMETRIC, registration.kind)
        assertEquals(1, account.device.prompt.shown)
        account.client.signOut()
        assertNull(account.client.sessionToken)

        val app = account.relaunched()
        assertTrue(app.isBiometricSignInEnabled())
        account.device.willAnswer(Answer.Present("owner"))
        val signedIn = app.signInWithBiometrics(PROMPT)
        assertEquals(AuthenticationMethod.BIOMETRIC, signedIn.session.authentication.method)
        assertEquals(registration.id, signedIn.session.authentication.registrationId)
        assertEquals(2, account.device.prompt.shown)
        assertNotNull(app.sessionToken)
    }

    @Test
    fun `the Keystore key is P-256 behind strong biometrics, invalidated by enrollment, per-use on API 30+ and validity -1 below`() = runSuspend {
        for ((api, rule) in listOf(34 to KeySpec.Authentication.STRONG_BIOMETRIC_PER_USE, 29 to KeySpec.Authentication.BIOMETRIC_PER_USE_LEGACY)) {
            val account = Account.signedIn(SimulatedDevice(apiLevel = api))
            account.enableBiometrics()
            val spec = account.device.keyStore.specs.getValue(account.deviceKeyAlias)
            assertEquals(KeySpec.Kind.SIGNING_P256, spec.kind)
            assertEquals(true, spec.invalidatedByBiometricEnrollment)
            assertEquals(rule, spec.authentication, "API $api")
        }
    }

    @Test
    fun `StrongBox is used when the device has one, and the TEE otherwise`() = runSuspend {
        for (strongBox in listOf(true, false)) {
            val account = Account.signedIn(SimulatedDevice(hasStrongBox = strongBox))
            account.enableBiometrics()
            assertEquals(strongBox, account.device.keyStore.specs.getValue(account.deviceKeyAlias).strongBox)
        }
    }

    @Test
    fun `the session token kept behind biometrics comes back after one prompt, canceling gives USER_CANCELED`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        val token = account.client.sessionToken!!
        account.device.willAnswer(Answer.Present("owner"))
        account.client.keepSessionBehindBiometrics(PROMPT)
        assertFalse(account.device.storage.dump().values.any { it.contains(token) }, "the token is stored only encrypted")
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
        assertEquals(ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_INVALIDATED), signedIn.reconciliation)
        // The server no longer issues challenges for it: revoked, not just forgotten here.
        assertEquals(404, RawHttp.call("POST", "/v1/biometric/challenges", org.json.JSONObject().put("registration_id", registration.id)).status)
        assertEquals(Code.KEY_MISSING, failure { Account.client(account.device).signInWithBiometrics(PROMPT) }.code)
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
        assertTrue(account.client.setPIN(Account.PIN, PROMPT, reauthentication = Reauthentication.Password { Account.PASSWORD }))
        val app = account.relaunched()
        assertEquals(AuthenticationMethod.PIN, app.signInWithPIN(Account.PIN).session.authentication.method)
        assertEquals(ServerErrorCode.INVALID_CREDENTIALS, failure { app.signInWithPIN("111999") }.serverCode)
        val shown = account.device.prompt.shown
        account.device.willAnswer(Answer.Present("owner"))
        assertEquals(AuthenticationMethod.PIN, app.signInWithStoredPIN(PROMPT).session.authentication.method)
        assertEquals(shown + 1, account.device.prompt.shown)
        // Another phone knows the PIN but holds no PIN key: nothing to sign with.
        assertEquals(Code.KEY_MISSING, failure { Account.client(SimulatedDevice()).signInWithPIN(Account.PIN) }.code)
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
        assertEquals(listOf(ReconciliationAction.LocalRegistrationRemoved(registration.id)), account.client.reconcile())
        assertFalse(account.client.isBiometricSignInEnabled())
        assertEquals(emptyList<ReconciliationAction>(), account.client.reconcile(), "in agreement now")
    }

    @Test
    fun `reconcile revokes the server registration of a key this phone no longer has`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        account.device.keyStore.delete(account.deviceKeyAlias)
        assertEquals(listOf(ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_MISSING)), account.client.reconcile())
        val listed = RawHttp.call("GET", "/v1/biometric/registrations", token = account.client.sessionToken)
        assertEquals(0, listed.body.getJSONArray("registrations").length())
    }

    @Test
    fun `re-authenticating with biometrics takes one prompt, changing the password ends every other session, and so does sign-out everywhere else`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        val elsewhere = Account.client(SimulatedDevice())
        elsewhere.signIn(account.username, Account.PASSWORD)
        val shown = account.device.prompt.shown
        account.device.willAnswer(Answer.Present("owner"))
        account.client.reauthenticateWithBiometrics(PROMPT)
        assertEquals(shown + 1, account.device.prompt.shown)
        assertEquals(AuthenticationMethod.BIOMETRIC, account.client.session!!.factors.last())
        account.client.changePassword(Account.PASSWORD, "new horse battery staple")
        assertEquals(401, RawHttp.call("GET", "/v1/sessions/current", token = elsewhere.sessionToken).status)
        assertEquals(200, RawHttp.call("GET", "/v1/sessions/current", token = account.client.sessionToken).status)

        val third = Account.client(SimulatedDevice())
        third.signIn(account.username, "new horse battery staple")
        account.client.signOutEverywhereElse()
        assertEquals(401, RawHttp.call("GET", "/v1/sessions/current", token = third.sessionToken).status)
    }

    @Test
    fun `a new sign-in ends the session it replaces on the server`() = runSuspend {
        val account = Account.signedIn()
        val first = account.client.sessionToken
        account.client.signIn(account.username, Account.PASSWORD)
        assertEquals(401, RawHttp.call("GET", "/v1/sessions/current", token = first).status)
        assertEquals(200, RawHttp.call("GET", "/v1/sessions/current", token = account.client.sessionToken).status)
    }
}
