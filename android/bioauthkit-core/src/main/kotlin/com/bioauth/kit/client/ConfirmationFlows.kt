package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.ApproveConfirmationRequest
import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.ConfirmationListResponse
import com.bioauth.kit.protocol.ConfirmationMessage
import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ConfirmationStatus
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ServerErrorCode

/**
 * Confirmations: listing the account's, approving one with this device's biometric key or PIN
 * key, declining one. What is shown and signed comes from the details alone, derived here: the
 * text ([PendingConfirmation.shownText]) and the hash ([com.bioauth.kit.protocol.ConfirmationDetails.hash]),
 * never the text or the hash the server sent; details that break [ConfirmationRules] are refused
 * before anything is shown or sent.
 */
internal class ConfirmationFlows(private val core: ClientCore, private val enrolled: EnrolledKey, private val pins: PinFlows) {
    /** The pending ones, each judged on this phone. */
    suspend fun pending(): List<PendingConfirmation> =
        core.api.call(Endpoint.LIST_CONFIRMATIONS, token = core.requireToken(), read = ConfirmationListResponse::from).confirmations
            .filter { it.status == ConfirmationStatus.PENDING }.map(::PendingConfirmation)

    /** The hash this phone signs for [confirmation]: of the details it shows, derived here. */
    private fun hash(confirmation: Confirmation): ByteArray = confirmation.details.hash(confirmation.id)

    /** With this device's biometric key over a fresh challenge: one prompt, showing the derived text. */
    suspend fun approve(pending: PendingConfirmation, prompt: ConfirmationPrompt): Confirmation {
        val confirmation = pending.confirmation
        val text = PendingConfirmation.shownText(confirmation)
        val token = core.requireToken()
        val record = enrolled.usable()
        if (record.userId != core.current?.user?.id) throw BioAuthException(Code.KEY_MISSING, "this device's key belongs to another user")
        val challenge = try {
            core.challenge(record.registrationId)
        } catch (error: BioAuthException) {
            if (error.serverCode == ServerErrorCode.REGISTRATION_NOT_FOUND) enrolled.removeLocal()
            throw error
        }
        val message = ConfirmationMessage(core.configuration.relyingPartyId, record.registrationId, challenge.challengeBytes, hash(confirmation))
        val signature = enrolled.sign(record, message.encoded(), prompt.promptText(text), confirmationRequired = true)
        return submit(confirmation, ApproveConfirmationRequest(challenge.challengeId, Base64Url.encode(signature)), token)
    }

    /** With this device's PIN key and the PIN: no prompt (the app shows the pending confirmation's text itself). */
    suspend fun approveWithPIN(pending: PendingConfirmation, pin: String): Confirmation {
        val confirmation = pending.confirmation
        PendingConfirmation.shownText(confirmation)
        val token = core.requireToken()
        val signed = pins.signChallenge { registrationId, challenge ->
            ConfirmationMessage(core.configuration.relyingPartyId, registrationId, challenge, hash(confirmation)).encoded()
        }
        return submit(confirmation, ApproveConfirmationRequest(signed.challengeId, Base64Url.encode(signed.signature), pin), token)
    }

    suspend fun decline(pending: PendingConfirmation): Confirmation =
        core.api.call(Endpoint.DECLINE_CONFIRMATION, pending.id, token = core.requireToken(), read = ::answer)

    private suspend fun submit(confirmation: Confirmation, body: ApproveConfirmationRequest, token: String): Confirmation =
        core.api.call(Endpoint.APPROVE_CONFIRMATION, confirmation.id, body, token, ::answer)

    /** The confirmation as the server answers an approval or a decline. */
    private fun answer(json: org.json.JSONObject): Confirmation = Confirmation.from(json.optJSONObject("confirmation") ?: json)
}
