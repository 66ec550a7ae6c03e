package com.bioauth.kit.protocol

/**
 * What a server accepts as a confirmation's details, and this SDK agrees to display and sign: the
 * Swift `ConfirmationRules` (their one home for the server and BioAuthKit), ported, held to the same
 * answers by docs/confirmation-vectors.json.
 *
 * - The kind is known and has exactly its fields ([ConfirmationDetails]).
 * - `amount` is a decimal string above zero, `0` or without leading zeros, at most 15 integer
 *   digits, and no more fraction digits than its currency has minor units (none for `JPY`).
 * - `currency` is an active ISO 4217 code.
 * - Text shown to the user has no control, format (bidi overrides, zero-width), private-use or
 *   unassigned characters, no spacing but single U+0020 spaces inside, is in NFKC form, and mixes
 *   no Latin, Greek and Cyrillic letters; `payee_account` is ASCII letters, digits, spaces and `-./`.
 * - Lengths: `payee_name` 70, `payee_account` 64, `reference` and `action` 140 characters (code
 *   points); the canonical details at most [MAX_CANONICAL_BYTES].
 */
public object ConfirmationRules {
    /** Why details were refused: the code a server refuses them with, and the field. */
    public data class Problem(
        /** [ServerErrorCode.INVALID_CONFIRMATION], `INVALID_AMOUNT`, `INVALID_CURRENCY`, `INVALID_CONFIRMATION_TEXT` or `CONFIRMATION_TOO_LARGE`. */
        val code: ServerErrorCode,
        /** The field's wire name (`details` for the whole). */
        val field: String,
        /** What is wrong, for a person. */
        val reason: String,
    )

    /** The most bytes the canonical details may take. */
    public const val MAX_CANONICAL_BYTES: Int = 1024

    /** The most characters (code points) each text field may have. */
    public val MAX_LENGTH: Map<String, Int> = mapOf("payee_name" to 70, "payee_account" to 64, "reference" to 140, "action" to 140)

    /** The first problem of [details] for a confirmation with id [confirmationId], or `null` when there is none. */
    public fun problem(details: ConfirmationDetails, confirmationId: String): Problem? {
        shapeProblem(details)?.let { return it }
        val texts = listOf(
            "payee_name" to details.payeeName, "payee_account" to details.payeeAccount, "reference" to details.reference, "action" to details.action,
        )
        for ((field, text) in texts) {
            if (text == null) continue
            val limit = MAX_LENGTH.getValue(field)
            if (text.codePointCount(0, text.length) > limit) {
                return Problem(ServerErrorCode.CONFIRMATION_TOO_LARGE, field, "It is longer than $limit characters.")
            }
            val reason = if (field == "payee_account") TextRules.accountProblem(text) else TextRules.problem(text)
            if (reason != null) return Problem(ServerErrorCode.INVALID_CONFIRMATION_TEXT, field, reason)
        }
        if (details.kind == ConfirmationKind.PAYMENT) amountProblem(details.amount.orEmpty(), details.currency.orEmpty())?.let { return it }
        if (details.canonicalJson(confirmationId).size > MAX_CANONICAL_BYTES) {
            return Problem(ServerErrorCode.CONFIRMATION_TOO_LARGE, "details", "The details take more than $MAX_CANONICAL_BYTES bytes.")
        }
        return null
    }

    /** The kind is known and has exactly the fields it needs and allows. */
    private fun shapeProblem(details: ConfirmationDetails): Problem? {
        val present = listOf(
            "amount" to (details.amount != null), "currency" to (details.currency != null), "payee_name" to (details.payeeName != null),
            "payee_account" to (details.payeeAccount != null), "action" to (details.action != null),
        )
        val (required, allowed) = when (details.kind) {
            ConfirmationKind.PAYMENT -> setOf("amount", "currency", "payee_name") to setOf("amount", "currency", "payee_name", "payee_account")
            ConfirmationKind.ACTION -> setOf("action") to setOf("action")
            ConfirmationKind.UNKNOWN -> return Problem(ServerErrorCode.INVALID_CONFIRMATION, "kind", "The kind is not one of: payment, action.")
        }
        details.unknownFields.firstOrNull()?.let { return Problem(ServerErrorCode.INVALID_CONFIRMATION, it, "A confirmation has no $it.") }
        for ((field, isPresent) in present) {
            if (isPresent && field !in allowed) return Problem(ServerErrorCode.INVALID_CONFIRMATION, field, "A ${details.kind.wire} has no $field.")
            if (!isPresent && field in required) return Problem(ServerErrorCode.INVALID_CONFIRMATION, field, "A ${details.kind.wire} needs $field.")
        }
        return null
    }

    /** The amount is a positive decimal with at most the currency's minor digits. */
    private fun amountProblem(amount: String, currency: String): Problem? {
        val minorDigits = Iso4217.minorDigits[currency]
            ?: return Problem(ServerErrorCode.INVALID_CURRENCY, "currency", "It is not an active ISO 4217 currency code.")
        val parts = amount.split(".", limit = 2)
        val whole = parts[0]
        val fraction = parts.getOrNull(1)
        fun digits(text: String) = text.isNotEmpty() && text.all { it in '0'..'9' }
        if (!digits(whole) || whole.length > 15 || (whole != "0" && whole.startsWith("0")) || (fraction != null && !digits(fraction))) {
            return Problem(ServerErrorCode.INVALID_AMOUNT, "amount", "It is not a decimal amount such as 12.50.")
        }
        if ((fraction?.length ?: 0) > minorDigits) {
            return Problem(ServerErrorCode.INVALID_AMOUNT, "amount", "$currency has $minorDigits digits after the point.")
        }
        if (amount.none { it in '1'..'9' }) return Problem(ServerErrorCode.INVALID_AMOUNT, "amount", "The amount must be above zero.")
        return null
    }
}
