package com.bioauth.kit.protocol

import org.json.JSONObject

/**
 * A confirmation: something the bank's backend asked this account to approve on the phone, and
 * what became of it (`GET /v1/confirmations`). Times are RFC 3339 text, as sent.
 *
 * [details] are what the SDK shows and signs: it derives the text ([ConfirmationText.of]) and the
 * hash ([ConfirmationDetails.hash]) from them itself. [serverDetailsHash] and [serverText] are what
 * the server says of them, for display in lists only; the SDK never signs or prompts with them.
 */
public data class Confirmation(
    /** `cnf_…` */
    val id: String,
    /** The account asked. */
    val userId: String,
    /** Where it stands. */
    val status: ConfirmationStatus,
    /** What is approved. */
    val details: ConfirmationDetails,
    /** `details_hash` as the server computed it (base64url): never what the SDK signs. */
    val serverDetailsHash: String,
    /** `text` as the server derived it: never what the SDK prompts with. */
    val serverText: ConfirmationText,
    /** When the backend asked. */
    val createdAt: String,
    /** When it stops being approvable. */
    val expiresAt: String,
    /** When it was approved or declined. */
    val decidedAt: String? = null,
    /** The factor that approved it. */
    val factor: AuthenticationMethod? = null,
    /** The device key that approved it. */
    val registrationId: String? = null,
    /** The passkey that approved it. */
    val passkeyId: String? = null,
    /** For an approved one: the receipt, a compact JWS (`typ` `bioauth-receipt+jwt`) the bank's backend verifies. */
    val receipt: String? = null,
) {
    internal companion object {
        fun from(json: JSONObject): Confirmation {
            val text = json.getJSONObject("text")
            val lines = text.optJSONArray("lines")
            return Confirmation(
                id = json.getString("id"),
                userId = json.getString("user_id"),
                status = ConfirmationStatus.of(json.getString("status")),
                details = ConfirmationDetails.from(json.getJSONObject("details")),
                serverDetailsHash = json.base64url("details_hash"),
                serverText = ConfirmationText(text.getString("title"), List(lines?.length() ?: 0) { lines!!.getString(it) }),
                createdAt = json.getString("created_at"),
                expiresAt = json.getString("expires_at"),
                decidedAt = json.stringOrNull("decided_at"),
                factor = json.stringOrNull("factor")?.let { AuthenticationMethod.of(it) },
                registrationId = json.stringOrNull("registration_id"),
                passkeyId = json.stringOrNull("passkey_id"),
                receipt = json.stringOrNull("receipt"),
            )
        }
    }
}

/** Where a confirmation stands. */
public enum class ConfirmationStatus(
    /** The status as the server writes it. */
    public val wire: String,
) {
    /** Waiting for the user. */
    PENDING("pending"),

    /** Signed by a credential of the account; it has a receipt. */
    APPROVED("approved"),

    /** The user said no. */
    DECLINED("declined"),

    /** Nobody approved it in time. */
    EXPIRED("expired"),

    /** Five approvals in a row failed (a signature or PIN that did not hold). */
    BLOCKED("blocked"),

    /** A status this SDK does not know. */
    UNKNOWN(""),
    ;

    internal companion object {
        fun of(wire: String): ConfirmationStatus = entries.firstOrNull { it.wire == wire && it != UNKNOWN } ?: UNKNOWN
    }
}

/** `{confirmations}`: `GET /v1/confirmations`, the pending ones oldest first, then the latest others, newest first. */
internal data class ConfirmationListResponse(val confirmations: List<Confirmation>) {
    companion object {
        fun from(json: JSONObject): ConfirmationListResponse {
            val array = json.getJSONArray("confirmations")
            return ConfirmationListResponse(List(array.length()) { Confirmation.from(array.getJSONObject(it)) })
        }
    }
}

/**
 * `POST /v1/confirmations/{id}/approve`: a device key's signature over the [ConfirmationMessage]
 * with a fresh authentication challenge, and with a PIN key its PIN.
 */
internal data class ApproveConfirmationRequest(val challengeId: String, val signature: String, val pin: String? = null) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("challenge_id", challengeId).put("signature", signature).putIfPresent("pin", pin)

    /** Leaves the PIN out: it is never written to a log. */
    override fun toString(): String = "ApproveConfirmationRequest(challenge_id=$challengeId, pin=${if (pin == null) "none" else "…"})"
}
