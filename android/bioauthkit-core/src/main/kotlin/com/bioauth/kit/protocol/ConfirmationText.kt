package com.bioauth.kit.protocol

/**
 * The words a user is shown for a confirmation, derived from its fields alone, the same way on the
 * server, on every device and on the account page (the Swift `ConfirmationText`; the test vectors
 * pin them):
 *
 * | kind | title | lines |
 * |---|---|---|
 * | payment | `Pay <amount> <currency> to <payee_name>` | `Account: <payee_account>`, `Reference: <reference>` |
 * | action | `<action>` | `Reference: <reference>` |
 *
 * A line whose field is absent is left out. The SDK puts [title] and [lines] in BiometricPrompt.
 */
public data class ConfirmationText(
    /** The first line: what is approved. */
    val title: String,
    /** The further lines, in order. */
    val lines: List<String>,
) {
    /** The title and the lines, one per line. */
    val text: String get() = (listOf(title) + lines).joinToString("\n")

    public companion object {
        /**
         * The text of [details]; `null` for a kind this SDK does not know, or details missing a
         * field their kind needs ([ConfirmationRules] refuses both).
         */
        public fun of(details: ConfirmationDetails): ConfirmationText? = when (details.kind) {
            ConfirmationKind.PAYMENT -> {
                val amount = details.amount
                val currency = details.currency
                val payee = details.payeeName
                if (amount == null || currency == null || payee == null) {
                    null
                } else {
                    ConfirmationText(
                        "Pay $amount $currency to $payee",
                        listOfNotNull(details.payeeAccount?.let { "Account: $it" }, details.reference?.let { "Reference: $it" }),
                    )
                }
            }
            ConfirmationKind.ACTION -> details.action?.let { action ->
                ConfirmationText(action, listOfNotNull(details.reference?.let { "Reference: $it" }))
            }
            ConfirmationKind.UNKNOWN -> null
        }
    }
}
