package com.bioauth.kit.client

import com.bioauth.kit.protocol.ConfirmationText

/**
 * What the app chooses for a confirmation's prompt. The title and the description are not the
 * app's: the SDK sets them from the [ConfirmationText] it derived from the details it signs
 * ([promptText]), so the prompt says what the signature covers.
 */
public data class ConfirmationPrompt(
    /** The negative button; not shown when the policy lets the device credential in. */
    val negativeButton: String = "Cancel",
    /** The subtitle (`"Approve with your fingerprint"`), if any. */
    val subtitle: String? = null,
) {
    /**
     * BiometricPrompt's text for [text]: the title is [ConfirmationText.title], the description its
     * lines, one per line. SystemUI shows the title on one line (from Android 14:
     * `biometric_prompt_constraint_layout.xml`, `singleLine`, a marquee that runs once, then cut),
     * while the description wraps and scrolls; so a title longer than [TITLE_ONE_LINE] characters is
     * also the description's first line, and the whole text can always be read there.
     */
    internal fun promptText(text: ConfirmationText): PromptText {
        val long = text.title.codePointCount(0, text.title.length) > TITLE_ONE_LINE
        val lines = if (long) listOf(text.title) + text.lines else text.lines
        return PromptText(
            title = text.title,
            negativeButton = negativeButton,
            subtitle = subtitle,
            description = lines.takeIf { it.isNotEmpty() }?.joinToString("\n"),
        )
    }

    internal companion object {
        /** The longest title assumed to fit one line of the prompt on a phone (`Pay 12.50 EUR to Alice Example`). */
        const val TITLE_ONE_LINE = 30
    }
}
