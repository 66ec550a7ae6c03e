package com.bioauth.kit

import com.bioauth.kit.client.ConfirmationPrompt
import com.bioauth.kit.client.PendingConfirmation
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.ConfirmationDetails
import com.bioauth.kit.protocol.ConfirmationKind
import com.bioauth.kit.protocol.ConfirmationMessage
import com.bioauth.kit.protocol.ConfirmationStatus
import com.bioauth.kit.protocol.ConfirmationText
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.LoopbackServer
import com.bioauth.kit.support.RecordingTransport
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.security.KeyFactory
import java.security.Signature
import java.security.spec.X509EncodedKeySpec

/**
 * Approving a confirmation on the simulated phone: what the prompt shows and what the key signs
 * come from the details alone, derived on the phone, and details the rules refuse are never shown.
 */
class ConfirmationFlowTest {
    private val id = "cnf_0123456789abcdef0123456789abcdef"
    private val payment = ConfirmationDetails.payment("12.50", "EUR", "Alice Example", "DE89 3704 0044 0532 0130 00", "Invoice 42")

    /** A confirmation as a server could send it, with [serverText] and a server hash that need not match [details]. */
    private fun confirmation(details: ConfirmationDetails, serverText: ConfirmationText = ConfirmationText("Pay 1.00 EUR to Bob", emptyList())) =
        Confirmation(
            id = id, userId = "usr_1", status = ConfirmationStatus.PENDING, details = details,
            serverDetailsHash = Base64Url.encode(ByteArray(32)), serverText = serverText,
            createdAt = "2026-11-28T09:00:00Z", expiresAt = "2026-11-28T09:05:00Z",
        )

    @Test
    fun `details that break the rules, or of a kind this SDK does not know, are refused before any prompt or request`() = runSuspend {
        val wire = RecordingTransport()
        val owner = Account.signedIn(transport = wire)
        owner.enableBiometrics()
        owner.client.setPIN(Account.PIN, Account.PROMPT, keepBehindBiometrics = false)
        val refused = mapOf(
            ConfirmationDetails(ConfirmationKind.UNKNOWN, action = "Borrow 5 EUR") to ServerErrorCode.INVALID_CONFIRMATION,
            ConfirmationDetails.payment("12.50", "EUR", "Alice\u202Eelpmaxe") to ServerErrorCode.INVALID_CONFIRMATION_TEXT,
            ConfirmationDetails.payment("12.505", "EUR", "Alice Example") to ServerErrorCode.INVALID_AMOUNT,
            ConfirmationDetails.payment("12.50", "EUR", "Pаypal") to ServerErrorCode.INVALID_CONFIRMATION_TEXT,
        )
        for ((details, code) in refused) {
            val prompts = owner.device.prompt.shown
            val requests = wire.requests.size
            val bad = PendingConfirmation(confirmation(details))
            val calls = listOf<suspend () -> Unit>(
                { owner.client.approveConfirmationWithBiometrics(bad) },
                { owner.client.approveConfirmationWithPIN(bad, Account.PIN) },
            )
            for (call in calls) {
                val error = failure(call)
                assertEquals(Code.CONFIRMATION_REFUSED, error.code, "$details")
                assertEquals(code, error.confirmationProblem?.code, "$details")
            }
            assertEquals(code, bad.refusal?.confirmationProblem?.code, "$details")
            assertNull(bad.text)
            assertEquals(prompts, owner.device.prompt.shown, "no prompt for $details")
            assertEquals(requests, wire.requests.size, "no request for $details: ${wire.requests.drop(requests)}")
        }
    }

    @Test
    fun `the prompt shows the text derived from the details and the key signs their hash, never the server's text or hash`() = runSuspend {
        val wire = RecordingTransport()
        val owner = Account.signedIn(transport = wire)
        owner.enableBiometrics()
        val publicKey = Base64Url.decode(JSONObject(wire.bodies.getValue("/v1/biometric/registrations")).getString("public_key"))!!
        owner.device.willAnswer(Answer.Present("owner"))
        val pending = PendingConfirmation(confirmation(payment))
        runCatching { owner.client.approveConfirmationWithBiometrics(pending, ConfirmationPrompt(subtitle = "Approve with your fingerprint")) }
        val request = owner.device.prompt.lastRequest!!
        assertEquals("Pay 12.50 EUR to Alice Example", request.title)
        assertEquals("Account: DE89 3704 0044 0532 0130 00\nReference: Invoice 42", request.description)
        assertEquals("Approve with your fingerprint", request.subtitle)
        assertTrue(request.confirmationRequired, "a passive match needs a tap")
        // What went out: a signature over the message with the hash of the details as shown.
        val sent = JSONObject(wire.bodies.getValue("/v1/confirmations/$id/approve"))
        val challenge = JSONObject(wire.answers.getValue("/v1/biometric/challenges"))
        assertEquals(challenge.getString("challenge_id"), sent.getString("challenge_id"))
        val registrationId = JSONObject(wire.bodies.getValue("/v1/biometric/challenges")).getString("registration_id")
        val message = ConfirmationMessage(
            LoopbackServer.RELYING_PARTY, registrationId, Base64Url.decode(challenge.getString("challenge"))!!, payment.hash(id),
        ).encoded()
        val verifier = Signature.getInstance("SHA256withECDSA")
        verifier.initVerify(KeyFactory.getInstance("EC").generatePublic(X509EncodedKeySpec(publicKey)))
        verifier.update(message)
        assertTrue(verifier.verify(Base64Url.decode(sent.getString("signature"))), "the signature covers the details' own hash")
    }

    @Test
    fun `a title longer than one line of the prompt is also the description's first line`() {
        val short = ConfirmationPrompt().promptText(ConfirmationText("Pay 12.50 EUR to Alice Example", emptyList()))
        assertEquals(null, short.description)
        val long = ConfirmationText("Pay 12.50 EUR to Alice Example Holdings Limited", listOf("Reference: Invoice 42"))
        assertEquals("Pay 12.50 EUR to Alice Example Holdings Limited\nReference: Invoice 42", ConfirmationPrompt().promptText(long).description)
        assertEquals(long.title, ConfirmationPrompt().promptText(long).title)
    }
}
