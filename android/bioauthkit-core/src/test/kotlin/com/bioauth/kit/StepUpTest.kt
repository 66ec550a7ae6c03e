package com.bioauth.kit

import com.bioauth.kit.client.Reauthentication
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.LoopbackServer
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Step-up: once the session's sign-in is older than the server's window (the loopback server runs
 * with `--step-up-minutes 1`), credential changes need a fresh proof, which the client gives once
 * when told how. The one slow test of the suite: it waits out the window.
 */
class StepUpTest {
    @Test
    fun `after the step-up window a credential change is refused, and the client re-authenticates once, with the password or with biometrics, and retries`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        Thread.sleep((LoopbackServer.STEP_UP_MINUTES * 60 + 2) * 1000L)
        assertEquals(
            ServerErrorCode.REAUTHENTICATION_REQUIRED,
            failure { account.client.setPIN("582014", PROMPT, keepBehindBiometrics = false) }.serverCode,
        )
        account.client.setPIN("582014", PROMPT, keepBehindBiometrics = false, reauthentication = Reauthentication.Password { Account.PASSWORD })
        Thread.sleep((LoopbackServer.STEP_UP_MINUTES * 60 + 2) * 1000L)
        // Re-enabling: by default the previous biometric key proves the fresh sign-in (one prompt), the new key signs its registration (one more).
        val shown = account.device.prompt.shown
        account.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
        account.client.enableBiometricSignIn(prompt = PROMPT)
        assertEquals(shown + 2, account.device.prompt.shown)
    }
}
