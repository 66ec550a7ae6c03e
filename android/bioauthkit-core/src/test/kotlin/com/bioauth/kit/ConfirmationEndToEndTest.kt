package com.bioauth.kit

import com.bioauth.kit.client.PendingConfirmation
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.protocol.ConfirmationStatus
import com.bioauth.kit.protocol.ConfirmationText
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.BankBackend
import com.bioauth.kit.support.LoopbackServer
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.RecordingTransport
import com.bioauth.kit.support.RewritingTransport
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Confirmations end to end: the bank's backend asks a real `bioauth serve` (its service
 * credential made by `bioauth admin service-credentials create`), the simulated phone lists,
 * shows and approves or declines, and the backend reads the outcome.
 */
class ConfirmationEndToEndTest {
    private val payment = JSONObject().put("kind", "payment").put("amount", "12.50").put("currency", "EUR")
        .put("payee_name", "Alice Example").put("payee_account", "DE89 3704 0044 0532 0130 00").put("reference", "Invoice 42")

    /** The way to the server through someone who changes every listed confirmation's payee to [name]. */
    private fun payeeRewritten(name: String) = RewritingTransport("/v1/confirmations") { list ->
        val confirmations = list.getJSONArray("confirmations")
        for (index in 0 until confirmations.length()) confirmations.getJSONObject(index).getJSONObject("details").put("payee_name", name)
    }

    /** [owner]'s pending confirmation [id], as the phone lists it. */
    private suspend fun listed(owner: Account, id: String): PendingConfirmation = owner.client.pendingConfirmations().single { it.id == id }

    @Test
    fun `a payment the bank asks for is approved with one prompt showing its text, once, and the bank reads it approved with a receipt`() =
        runSuspend {
            val owner = Account.signedIn()
            owner.enableBiometrics()
            val bank = BankBackend.of()
            val id = bank.ask(owner.client.user!!.id, payment).getString("id")
            val pending = listed(owner, id)
            assertEquals(
                ConfirmationText("Pay 12.50 EUR to Alice Example", listOf("Account: DE89 3704 0044 0532 0130 00", "Reference: Invoice 42")),
                pending.text,
            )
            val prompts = owner.device.prompt.shown
            owner.device.willAnswer(Answer.Present("owner"))
            val approved = owner.client.approveConfirmationWithBiometrics(pending)
            assertEquals(prompts + 1, owner.device.prompt.shown, "one prompt")
            assertEquals("Pay 12.50 EUR to Alice Example", owner.device.prompt.lastRequest!!.title)
            assertEquals(ConfirmationStatus.APPROVED, approved.status)
            assertEquals(AuthenticationMethod.BIOMETRIC, approved.factor)
            assertTrue(approved.receipt!!.split('.').size == 3, "a compact JWS")
            val read = bank.get(id)
            assertEquals("approved", read.getString("status"))
            assertEquals(approved.receipt, read.getString("receipt"))
            owner.device.willAnswer(Answer.Present("owner"))
            assertEquals(ServerErrorCode.CONFIRMATION_CLOSED, failure { owner.client.approveConfirmationWithBiometrics(pending) }.serverCode)
            assertTrue(owner.client.pendingConfirmations().none { it.id == id })
        }

    @Test
    fun `a payee changed between the server and the app is shown as changed, and the server refuses its signature`() = runSuspend {
        // Someone between the server and the app changes the payee, leaving the server's text and hash.
        val owner = Account.signedIn(transport = payeeRewritten("Mallory Example"))
        owner.enableBiometrics()
        val bank = BankBackend.of()
        val id = bank.ask(owner.client.user!!.id, payment).getString("id")
        val pending = listed(owner, id)
        assertEquals("Pay 12.50 EUR to Alice Example", pending.confirmation.serverText.title, "the server's text, untouched")
        owner.device.willAnswer(Answer.Present("owner"))
        val refused = failure { owner.client.approveConfirmationWithBiometrics(pending) }
        assertEquals("Pay 12.50 EUR to Mallory Example", owner.device.prompt.lastRequest!!.title, "what the user was shown")
        assertEquals(ServerErrorCode.SIGNATURE_INVALID, refused.serverCode)
        assertEquals("pending", bank.get(id).getString("status"))
    }

    @Test
    fun `an approval recorded on the wire and sent again is refused`() = runSuspend {
        val wire = RecordingTransport()
        val owner = Account.signedIn(transport = wire)
        owner.enableBiometrics()
        val id = BankBackend.of().ask(owner.client.user!!.id, payment).getString("id")
        owner.device.willAnswer(Answer.Present("owner"))
        owner.client.approveConfirmationWithBiometrics(listed(owner, id))
        val path = "/v1/confirmations/$id/approve"
        val replay = RawHttp.call("POST", path, JSONObject(wire.bodies.getValue(path)), owner.client.sessionToken)
        assertNotEquals(200, replay.status)
        assertTrue(replay.body.getJSONObject("error").getString("code") in setOf("challenge_invalid", "confirmation_closed"), "${replay.body}")
    }

    @Test
    fun `a declined confirmation is declined for the bank and cannot be approved afterwards`() = runSuspend {
        val owner = Account.signedIn()
        owner.enableBiometrics()
        val bank = BankBackend.of()
        val id = bank.ask(owner.client.user!!.id, payment).getString("id")
        val pending = listed(owner, id)
        assertEquals(ConfirmationStatus.DECLINED, owner.client.declineConfirmation(pending).status)
        assertEquals("declined", bank.get(id).getString("status"))
        owner.device.willAnswer(Answer.Present("owner"))
        assertEquals(ServerErrorCode.CONFIRMATION_CLOSED, failure { owner.client.approveConfirmationWithBiometrics(pending) }.serverCode)
    }

    @Test
    fun `the PIN key with the PIN approves only where the operator allows it, without a prompt`() = runSuspend {
        for ((server, allowed) in listOf(LoopbackServer.url to false, PIN_SERVER to true)) {
            val owner = Account.signedIn(server = server)
            owner.client.setPIN(Account.PIN, Account.PROMPT, keepBehindBiometrics = false)
            val id = BankBackend.of(server).ask(owner.client.user!!.id, payment).getString("id")
            val pending = listed(owner, id)
            val prompts = owner.device.prompt.shown
            if (allowed) {
                val approved = owner.client.approveConfirmationWithPIN(pending, Account.PIN)
                assertEquals(ConfirmationStatus.APPROVED, approved.status)
                assertEquals(AuthenticationMethod.PIN, approved.factor)
            } else {
                val refused = failure { owner.client.approveConfirmationWithPIN(pending, Account.PIN) }
                assertEquals(ServerErrorCode.CONFIRMATION_FACTOR_NOT_ALLOWED, refused.serverCode)
            }
            assertEquals(prompts, owner.device.prompt.shown, "no prompt")
        }
    }

    @Test
    fun `a confirmation the phone refuses to show is listed with its refusal and can still be declined`() = runSuspend {
        // The server's rules equal the phone's, so refused details cannot come from it: the phone's
        // tables are the only thing that may differ (an older Unicode). Shown with a rewritten answer.
        val owner = Account.signedIn(transport = payeeRewritten("Alice\u202Eevil"))
        val id = BankBackend.of().ask(owner.client.user!!.id, payment).getString("id")
        val pending = listed(owner, id)
        assertEquals(Code.CONFIRMATION_REFUSED, pending.refusal?.code)
        assertEquals(ServerErrorCode.INVALID_CONFIRMATION_TEXT, pending.refusal?.confirmationProblem?.code)
        assertEquals(ConfirmationStatus.DECLINED, owner.client.declineConfirmation(pending).status)
    }

    private companion object {
        /** A server run with `--confirmation-pin allow`. */
        val PIN_SERVER: String by lazy { LoopbackServer.start("--confirmation-pin", "allow") }
    }
}
