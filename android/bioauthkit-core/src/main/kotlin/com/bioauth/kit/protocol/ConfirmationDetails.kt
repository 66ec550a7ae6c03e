package com.bioauth.kit.protocol

import org.json.JSONObject
import java.security.MessageDigest

/**
 * What a confirmation asks the user to approve, as structured fields (the Swift
 * `ConfirmationDetails`): the only input to the text the user is shown ([ConfirmationText]) and to
 * the bytes that are signed ([canonicalJson]), so that the two cannot drift apart.
 *
 * A payment has [amount], [currency] and [payeeName] (and may have [payeeAccount] and
 * [reference]); an action has [action] (and may have [reference]). Absent fields are `null`, never
 * empty. [ConfirmationRules] says what a server accepts and this SDK displays.
 */
public data class ConfirmationDetails(
    /** What is confirmed. */
    val kind: ConfirmationKind,
    /** A payment's amount: a decimal string with at most the currency's minor digits (`"12.50"`). */
    val amount: String? = null,
    /** A payment's currency: an ISO 4217 code (`"EUR"`). */
    val currency: String? = null,
    /** Who a payment goes to, as the user knows them. */
    val payeeName: String? = null,
    /** The payee's account (an IBAN or another account number), in ASCII. */
    val payeeAccount: String? = null,
    /** The bank's reference for the payment or action, shown to the user. */
    val reference: String? = null,
    /** An action's description (`"Add Bob Example as a payee"`). */
    val action: String? = null,
    /**
     * The names of members the server's object had that this SDK does not know, sorted: nobody
     * would be shown them, so [ConfirmationRules] refuses details that have any. Never written.
     */
    val unknownFields: List<String> = emptyList(),
) {
    /** The fields present, by their wire names, with `confirmation_id`. */
    internal fun members(confirmationId: String): List<Pair<String, String>> = listOf(
        "action" to action, "amount" to amount, "confirmation_id" to confirmationId, "currency" to currency, "kind" to kind.wire,
        "payee_account" to payeeAccount, "payee_name" to payeeName, "reference" to reference,
    ).mapNotNull { (name, value) -> value?.let { name to it } }

    /**
     * The canonical form that is hashed and signed: a JSON object of the fields present and
     * `confirmation_id`, all strings, in RFC 8785 (JSON Canonicalization Scheme) form: members sorted
     * by name, no whitespace, strings escaped as RFC 8785 §3.2.2.2 says, UTF-8. Only for a kind this
     * SDK knows (an unknown one's text on the wire is not kept): [ConfirmationRules] refuses the others first.
     */
    public fun canonicalJson(confirmationId: String): ByteArray {
        check(kind != ConfirmationKind.UNKNOWN) { "a kind this SDK does not know has no canonical form here" }
        return CanonicalJson.obj(members(confirmationId))
    }

    /** SHA-256 of [canonicalJson]: the `details_hash` a confirmation's signature covers ([ConfirmationMessage]). */
    public fun hash(confirmationId: String): ByteArray = MessageDigest.getInstance("SHA-256").digest(canonicalJson(confirmationId))

    /** The details as the wire writes them. */
    internal fun json(): JSONObject = JSONObject().put("kind", kind.wire).putIfPresent("amount", amount).putIfPresent("currency", currency)
        .putIfPresent("payee_name", payeeName).putIfPresent("payee_account", payeeAccount).putIfPresent("reference", reference)
        .putIfPresent("action", action)

    public companion object {
        /** A payment of [amount] [currency] to [payeeName]. */
        public fun payment(
            amount: String,
            currency: String,
            payeeName: String,
            payeeAccount: String? = null,
            reference: String? = null,
        ): ConfirmationDetails = ConfirmationDetails(ConfirmationKind.PAYMENT, amount, currency, payeeName, payeeAccount, reference)

        /** An action described by [action]. */
        public fun action(action: String, reference: String? = null): ConfirmationDetails =
            ConfirmationDetails(ConfirmationKind.ACTION, reference = reference, action = action)

        /** The details the server sent; a kind this SDK does not know reads as [ConfirmationKind.UNKNOWN]. */
        internal fun from(json: JSONObject) = ConfirmationDetails(
            kind = ConfirmationKind.of(json.getString("kind")),
            amount = json.stringOrNull("amount"),
            currency = json.stringOrNull("currency"),
            payeeName = json.stringOrNull("payee_name"),
            payeeAccount = json.stringOrNull("payee_account"),
            reference = json.stringOrNull("reference"),
            action = json.stringOrNull("action"),
            unknownFields = json.keys().asSequence().filter { it !in KNOWN_FIELDS }.sorted().toList(),
        )

        /** The members this SDK reads. */
        private val KNOWN_FIELDS = setOf("kind", "amount", "currency", "payee_name", "payee_account", "reference", "action")
    }
}

/**
 * What a confirmation is for. This SDK shows and signs only kinds it knows: an unknown one decodes
 * as [UNKNOWN] (so a list from a newer server still reads) but has no text ([ConfirmationText]) and
 * is refused by [ConfirmationRules].
 */
public enum class ConfirmationKind(
    /** The kind as the server writes it. */
    public val wire: String,
) {
    /** `payment`: an amount to a payee. */
    PAYMENT("payment"),

    /** `action`: anything else the bank wants approved, described in words. */
    ACTION("action"),

    /** A kind this SDK does not know. */
    UNKNOWN(""),
    ;

    internal companion object {
        fun of(wire: String): ConfirmationKind = entries.firstOrNull { it.wire == wire && it != UNKNOWN } ?: UNKNOWN
    }
}
