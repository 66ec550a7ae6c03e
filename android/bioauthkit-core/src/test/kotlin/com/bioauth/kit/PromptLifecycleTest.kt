package com.bioauth.kit

import com.bioauth.kit.client.HttpAnswer
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.UrlConnectionTransport
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.net.URL

/**
 * A prompt androidx would drop (asked for after the user left the app) ends the call at once, and
 * a prompt on screen holds up no call that needs none.
 */
class PromptLifecycleTest {
    /** Leaves the app once, while the request to [path] is in flight, as a user pressing Home during a slow network call. */
    private class LeaveDuring(private val device: SimulatedDevice, private val path: String) : HttpTransport {
        private val transport = UrlConnectionTransport()

        @Volatile private var left = false

        override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer {
            val answer = transport.send(method, url, body, bearer)
            if (url.path == path && !left) {
                left = true
                device.leaveApp()
            }
            return answer
        }
    }

    @Test
    fun `a prompt asked for after the user left the app is not shown - PROMPT_NOT_SHOWN at once, nothing changes, and it works on return`() =
        runSuspend {
            val device = SimulatedDevice()
            val enabled = Account.signedIn(device)
            enabled.enableBiometrics()
            val client = Account.client(device, transport = LeaveDuring(device, "/v1/biometric/challenges"))
            val error = withTimeout(10_000) { failure { client.signInWithBiometrics(PROMPT) } }
            assertEquals(Code.PROMPT_NOT_SHOWN, error.code, "$error")
            assertEquals(1, device.prompt.notShown)
            assertTrue(client.isBiometricSignInEnabled(), "the key and the registration are kept")
            device.returnToApp()
            device.willAnswer(Answer.Present("owner"))
            assertEquals(AuthenticationMethod.BIOMETRIC, client.signInWithBiometrics(PROMPT).session.authentication.method)
        }

    @Test
    fun `a prompt on screen holds up no call that needs none - availability, password sign-in and sign-out answer meanwhile`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        account.device.willAnswer(Answer.Wait)
        coroutineScope {
            val prompting = async(Dispatchers.Default) { account.client.signInWithBiometrics(PROMPT) }
            withTimeout(10_000) { while (!account.device.prompt.isShowing) delay(5) }
            withTimeout(10_000) {
                assertTrue(account.client.availability().canEnableBiometricSignIn)
                assertTrue(account.client.isBiometricSignInEnabled())
                assertNotNull(account.client.signIn(account.username, Account.PASSWORD).session)
                account.client.signOut()
            }
            assertTrue(account.device.prompt.isShowing, "the prompt is still up")
            withTimeout(10_000) { prompting.cancel(); prompting.join() }
        }
        assertFalse(account.device.prompt.isShowing)
    }
}
