package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.ApproveConfirmationRequest
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.ConfirmationListResponse
import com.bioauth.kit.protocol.ConfirmationMessage
import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ConfirmationText
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ServerErrorCode

/**
 * Confirmations: listing the account's, approving one with this device's biometric key or PIN
 * key, declining one. What is shown and signed comes from the details alone, derived here: the
 * text ([ConfirmationText.of]) and the hash ([com.bioauth.kit.protocol.ConfirmationDetails.hash]),
 * never the text or the hash the server sent; details that break [ConfirmationRules] are refused
 * before anything is shown or sent.
 */
internal class ConfirmationFlows(private val core: ClientCore, private val enrolled: EnrolledKey, private val pins: PinFlows) {
    /** What a confirmation shows and signs, as derived on this device. */
    class Shown(val text: ConfirmationText, val hash: ByteArray)

    suspend fun list(): List<Confirmation> =
        core.api.call(Endpoint.LIST_CONFIRMATIONS, token = core.requireToken(), read = ConfirmationListResponse::from).confirmations

    /** The text and hash of [confirmation]'s details; `CONFIRMATION_REFUSED` when they break the rules. */
    fun shown(confirmation: Confirmation): Shown {
        ConfirmationRules.problem(confirmation.details, confirmation.id)?.let { problem ->
            val detail = "${problem.code.wire} (${problem.field}): ${problem.reason}"
            throw BioAuthException(Code.CONFIRMATION_REFUSED, detail, confirmationProblem = problem)
        }
        // The rules passed, so the kind is known and its fields are there: the text exists.
        val text = ConfirmationText.of(confirmation.details) ?: throw BioAuthException(Code.CONFIRMATION_REFUSED, "no text for these details")
        return Shown(text, confirmation.details.hash(confirmation.id))
    }

    /** With this device's biometric key over a fresh challenge: one prompt, showing the derived text. */
    suspend fun approve(confirmation: Confirmation, prompt: ConfirmationPrompt): Confirmation {
        val token = core.requireToken()
        val shown = shown(confirmation)
        val record = enrolled.usable()
        if (record.userId != core.current?.user?.id) throw BioAuthException(Code.KEY_MISSING, "this device's key belongs to another user")
        val challenge = try {
            core.challenge(record.registrationId)
        } catch (error: BioAuthException) {
            if (error.serverCode == ServerErrorCode.REGISTRATION_NOT_FOUND) enrolled.removeLocal()
            throw error
        }
        val message = ConfirmationMessage(core.configuration.relyingPartyId, record.registrationId, challenge.challengeBytes, shown.hash)
        val signature = enrolled.sign(record, message.encoded(), prompt.promptText(shown.text), confirmationRequired = true)
        return submit(confirmation, ApproveConfirmationRequest(challenge.challengeId, Base64Url.encode(signature)), token)
    }

    /** With this device's PIN key and the PIN: no prompt (the app shows [shown]'s text itself). */
    suspend fun approveWithPIN(confirmation: Confirmation, pin: String): Confirmation {
        val token = core.requireToken()
        val shown = shown(confirmation)
        val signed = pins.signChallenge { registrationId, challenge ->
            ConfirmationMessage(core.configuration.relyingPartyId, registrationId, challenge, shown.hash).encoded()
        }
        return submit(confirmation, ApproveConfirmationRequest(signed.challengeId, Base64Url.encode(signed.signature), pin), token)
    }

    suspend fun decline(confirmation: Confirmation): Confirmation =
        core.api.call(Endpoint.DECLINE_CONFIRMATION, confirmation.id, token = core.requireToken(), read = ::answer)

    private suspend fun submit(confirmation: Confirmation, body: ApproveConfirmationRequest, token: String): Confirmation =
        core.api.call(Endpoint.APPROVE_CONFIRMATION, confirmation.id, body, token, ::answer)

    /** The confirmation as the server answers an approval or a decline. */
    private fun answer(json: org.json.JSONObject): Confirmation = Confirmation.from(json.optJSONObject("confirmation") ?: json)
}
