package com.bioauth.kit

import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Cancelling the calling coroutine (a screen closed, `viewModelScope` cleared) dismisses the prompt. */
class CancellationTest {
    @Test
    fun `cancelling the coroutine dismisses the prompt - cancelAuthentication - and the next call prompts again`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.device.willAnswer(Answer.Wait)
        coroutineScope {
            val call = async(Dispatchers.Default) { account.client.signInWithBiometrics(PROMPT) }
            withTimeout(10_000) { while (!account.device.prompt.isShowing) delay(5) }
            withTimeout(10_000) { call.cancel(); call.join() }
            assertTrue(call.isCancelled)
            assertTrue(runCatching { call.await() }.exceptionOrNull() is CancellationException)
        }
        assertFalse(account.device.prompt.isShowing, "dismissed")
        assertEquals(1, account.device.prompt.cancelledByApp)
        account.device.willAnswer(Answer.Cancel)
        assertEquals(Code.USER_CANCELED, failure { account.client.signInWithBiometrics(PROMPT) }.code, "the client is not stuck")
        account.device.willAnswer(Answer.Present("owner"))
        account.client.signInWithBiometrics(PROMPT)
    }
}
