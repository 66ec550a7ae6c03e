package com.bioauth.kit

import com.bioauth.kit.client.AccessToken
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.TokenTap
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.withTimeout
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.Base64

/**
 * `accessToken()` against the loopback server: a token valid for at least the next minute, one
 * request however many callers ask at once, dropped with the session, never a prompt. Time passes
 * on the simulated phone's clock ([SimulatedDevice.advanceClock]); [TokenTap] counts the requests.
 */
class AccessTokenTest {
    private val tap = TokenTap()

    private suspend fun signedIn(device: SimulatedDevice = SimulatedDevice()) = Account.signedIn(device, transport = tap)

    @Test
    fun `a cached token is reused - two calls, one request - and it is the server's JWS for this user`() = runSuspend {
        val account = signedIn()
        val first = account.client.accessToken()
        val parts = first.token.split('.')
        assertEquals(3, parts.size)
        assertEquals(account.client.user?.id, JSONObject(String(Base64.getUrlDecoder().decode(parts[1]))).getString("sub"))
        account.device.advanceClock(30_000)
        assertEquals(first, account.client.accessToken())
        assertEquals(1, tap.tokenRequests.size)
    }

    @Test
    fun `a token with less than 60 s left is refreshed, with 61 s left it is reused`() = runSuspend {
        val account = signedIn()
        val first = account.client.accessToken()
        account.device.advanceClock(300_000 - 61_000)
        assertEquals(first, account.client.accessToken())
        assertEquals(1, tap.tokenRequests.size)
        account.device.advanceClock(2_000)
        assertNotEquals(first, account.client.accessToken())
        assertEquals(2, tap.tokenRequests.size)
    }

    @Test
    fun `20 concurrent callers make exactly one request and all get its token`() = runSuspend {
        val account = signedIn()
        tap.held = true
        val tokens = coroutineScope {
            val calls = List(20) { async(Dispatchers.Default) { account.client.accessToken() } }
            withTimeout(10_000) { while (tap.tokenRequests.isEmpty()) delay(2) }
            delay(100) // the other 19 callers arrive while the request is held
            tap.held = false
            calls.awaitAll()
        }
        assertEquals(20, tokens.size)
        assertEquals(1, tokens.map(AccessToken::token).toSet().size)
        assertEquals(1, tap.tokenRequests.size)
    }

    @Test
    fun `sign-out drops the cached token - signed out there is none, and the next sign-in's token is its own`() = runSuspend {
        val account = signedIn()
        val first = account.client.accessToken()
        val firstSession = account.client.sessionToken
        account.client.signOut()
        assertEquals(Code.NOT_SIGNED_IN, failure { account.client.accessToken() }.code)
        account.client.signIn(account.username, Account.PASSWORD)
        assertNotEquals(first, account.client.accessToken())
        assertEquals(listOf(firstSession, account.client.sessionToken), tap.tokenRequests.toList())
    }

    @Test
    fun `a sign-out while a request is under way - the token it brings is not kept, and its callers are told they are signed out`() = runSuspend {
        val account = signedIn()
        tap.held = true
        coroutineScope {
            val waiting = async(Dispatchers.Default) { failure { account.client.accessToken() } }
            withTimeout(10_000) { while (tap.tokenRequests.isEmpty()) delay(2) }
            account.client.signOut()
            tap.held = false
            assertEquals(Code.NOT_SIGNED_IN, waiting.await().code)
        }
        account.client.signIn(account.username, Account.PASSWORD)
        account.client.accessToken()
        assertEquals(2, tap.tokenRequests.size)
    }

    @Test
    fun `a re-authentication drops the cached token - the next one says the fresh proof`() = runSuspend {
        val account = signedIn()
        val first = account.client.accessToken()
        account.client.reauthenticate(Account.PASSWORD)
        assertNotEquals(first, account.client.accessToken())
        assertEquals(2, tap.tokenRequests.size)
    }

    @Test
    fun `a 401 from the server means the session is over - invalid_session, the client signed out, no token kept`() = runSuspend {
        val account = signedIn()
        account.client.accessToken()
        val other = Account.client(account.device)
        other.signIn(account.username, Account.PASSWORD)
        other.signOutEverywhereElse()
        account.device.advanceClock(250_000)
        val error = failure { account.client.accessToken() }
        assertEquals(ServerErrorCode.INVALID_SESSION, error.serverCode)
        assertEquals(401, error.rejection?.status)
        assertNull(account.client.session)
        assertEquals(Code.NOT_SIGNED_IN, failure { account.client.accessToken() }.code)
        assertEquals(2, tap.tokenRequests.size)
    }

    @Test
    fun `a refresh never shows a prompt, in a session that biometric sign-in made`() = runSuspend {
        val account = signedIn()
        account.enableBiometrics()
        account.client.signOut()
        account.device.willAnswer(Answer.Present("owner"))
        account.client.signInWithBiometrics(PROMPT)
        val shown = account.device.prompt.shown
        repeat(5) {
            account.client.accessToken()
            account.device.advanceClock(250_000)
        }
        assertEquals(5, tap.tokenRequests.size)
        assertEquals(shown, account.device.prompt.shown)
    }

    @Test
    fun `an access token's description leaves the token out, for logs`() {
        val token = AccessToken("eyJhbGciOiJFUzI1NiJ9.e30.c2ln", 0)
        assertFalse(token.toString().contains("eyJ"))
        assertTrue(token.authorizationHeader == "Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln")
    }
}
