package com.bioauth.kit

import com.bioauth.kit.client.LocalKeyLoss
import com.bioauth.kit.client.ReconciliationAction
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
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

/** After an enrollment change: reported as such wherever the platform reports it, and every feature comes back. */
class EnrollmentChangeTest {
    @Test
    fun `after an enrollment change and a password sign-in, turning biometrics on again restores sign-in, the session and the PIN behind biometrics`() = runSuspend {
        // API 30 (keystore1: initSign reports it) and 34 (keystore2: getKey reports it).
        for (api in listOf(30, 34)) {
            val account = Account.signedIn(SimulatedDevice(apiLevel = api))
            account.enableBiometrics()
            account.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
            account.client.keepSessionBehindBiometrics(PROMPT)
            account.client.setPIN(Account.PIN, PROMPT)

            account.device.enrollBiometric("someone else")
            val app = account.relaunched()
            // Each is found before any prompt: no answer is needed.
            assertEquals(Code.KEY_INVALIDATED, failure { app.signInWithBiometrics(PROMPT) }.code, "API $api: sign-in")
            assertEquals(Code.KEY_MISSING, failure { app.restoreSession(PROMPT) }.code, "API $api: the kept session went with the key")
            assertEquals(Code.KEY_INVALIDATED, failure { app.signInWithStoredPIN(PROMPT) }.code, "API $api: the kept PIN")

            assertTrue(app.signIn(account.username, Account.PASSWORD).reconciliation is ReconciliationAction.ServerRegistrationRevoked)
            account.device.willAnswer(Answer.Present("owner"))
            app.enableBiometricSignIn(prompt = PROMPT)
            account.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
            app.keepSessionBehindBiometrics(PROMPT)
            assertTrue(app.setPIN(Account.PIN, PROMPT), "API $api: the PIN is kept behind biometrics again")

            val next = account.relaunched()
            account.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"), Answer.Present("someone else"))
            next.restoreSession(PROMPT)
            assertEquals(app.sessionToken, next.sessionToken, "API $api: session")
            assertEquals(AuthenticationMethod.PIN, next.signInWithStoredPIN(PROMPT).session.authentication.method, "API $api: PIN")
            assertEquals(AuthenticationMethod.BIOMETRIC, next.signInWithBiometrics(PROMPT).session.authentication.method, "API $api: sign-in")
        }
    }

    @Test
    fun `keystore2 reports the invalidation at KeyStore getKey as an UnrecoverableKeyException - KEY_INVALIDATED, not KEY_MISSING`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(apiLevel = 33))
        val registration = account.enableBiometrics()
        account.device.enrollBiometric("someone else")
        assertEquals(Code.KEY_INVALIDATED, failure { account.client.signInWithBiometrics(PROMPT) }.code)
        assertEquals(1, account.device.prompt.shown, "found before any prompt: only enabling prompted")
        val signedIn = account.client.signIn(account.username, Account.PASSWORD)
        assertEquals(ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_INVALIDATED), signedIn.reconciliation)
    }

    @Test
    fun `isBiometricSignInEnabled begins a signature instead of trusting the alias - an invalidated key reads as not enabled and is recorded`() = runSuspend {
        val account = Account.signedIn()
        val registration = account.enableBiometrics()
        account.device.enrollBiometric("someone else")
        assertTrue(account.device.keyStore.contains(account.deviceKeyAlias), "the alias is still there")
        assertFalse(account.client.isBiometricSignInEnabled())
        assertEquals(1, account.device.prompt.shown, "no prompt")
        val signedIn = account.client.signIn(account.username, Account.PASSWORD)
        assertEquals(ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_INVALIDATED), signedIn.reconciliation)
    }

    @Test
    fun `reconcile finds an invalidated key whose alias still exists and revokes its registration`() = runSuspend {
        for (api in listOf(29, 34)) {
            val account = Account.signedIn(SimulatedDevice(apiLevel = api))
            val registration = account.enableBiometrics()
            account.device.enrollBiometric("someone else")
            assertEquals(listOf(ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_INVALIDATED)),
                         account.client.reconcile(), "API $api")
            assertEquals(1, account.device.prompt.shown, "no prompt")
        }
    }

    @Test
    fun `removing the screen lock takes the kept session and PIN with the key, and the PIN itself keeps working`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
        account.client.keepSessionBehindBiometrics(PROMPT)
        account.client.setPIN(Account.PIN, PROMPT)
        account.device.removeLockScreen()
        val app = account.relaunched()
        assertEquals(Code.KEY_INVALIDATED, failure { app.signInWithStoredPIN(PROMPT) }.code)
        assertEquals(Code.KEY_MISSING, failure { app.restoreSession(PROMPT) }.code)
        assertEquals(AuthenticationMethod.PIN, app.signInWithPIN(Account.PIN).session.authentication.method)
        assertEquals(Code.NO_SECURE_LOCK_SCREEN, failure { app.enableBiometricSignIn(prompt = PROMPT) }.code)
    }
}
