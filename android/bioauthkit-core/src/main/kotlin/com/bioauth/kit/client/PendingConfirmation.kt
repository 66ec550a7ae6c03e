package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ConfirmationText

/**
 * A confirmation waiting for this user, with what this phone makes of its details (as iOS's
 * `PendingConfirmation`): the text it shows ([text]), derived here from the fields alone, or why it
 * refuses to show them ([refusal]). The server's `text` and `details_hash` are never used: the
 * prompt shows [text] and the key signs the hash this phone computes from the same fields.
 */
public class PendingConfirmation(
    /** The confirmation as the server sent it. */
    public val confirmation: Confirmation,
) {
    /** The text this phone shows for the details (the prompt's title and description); `null` when it refuses them. */
    public val text: ConfirmationText?

    /** Why this phone refuses to show and sign the details (`CONFIRMATION_REFUSED`); `null` when it shows them. */
    public val refusal: BioAuthException?

    init {
        var shown: ConfirmationText? = null
        var refused: BioAuthException? = null
        try {
            shown = shownText(confirmation)
        } catch (error: BioAuthException) {
            refused = error
        }
        text = shown
        refusal = refused
    }

    /** `cnf_…` */
    public val id: String get() = confirmation.id

    override fun equals(other: Any?): Boolean = other is PendingConfirmation && other.confirmation == confirmation

    override fun hashCode(): Int = confirmation.hashCode()

    override fun toString(): String = "PendingConfirmation(${confirmation.id}, ${if (text != null) "shown" else "refused"})"

    public companion object {
        /**
         * The text this phone shows for [confirmation], from its details and id alone: the one
         * decision of what this SDK agrees to display and sign. Throws `CONFIRMATION_REFUSED`
         * ([BioAuthException.confirmationProblem]) when the details break [ConfirmationRules] (a kind
         * this SDK does not know among them).
         */
        public fun shownText(confirmation: Confirmation): ConfirmationText {
            ConfirmationRules.problem(confirmation.details, confirmation.id)?.let { problem ->
                val detail = "${problem.code.wire} (${problem.field}): ${problem.reason}"
                throw BioAuthException(Code.CONFIRMATION_REFUSED, detail, confirmationProblem = problem)
            }
            // The rules admit only kinds with a text: a rule and the text drifting apart.
            return ConfirmationText.of(confirmation.details) ?: throw BioAuthException(Code.SYSTEM_FAILURE, "checked details without a text")
        }
    }
}
