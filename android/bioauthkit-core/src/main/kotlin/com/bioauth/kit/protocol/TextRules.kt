package com.bioauth.kit.protocol

import java.text.Normalizer

/**
 * The character rules for a confirmation's text shown to a user ([ConfirmationRules]), ported from
 * the Swift `TextRules`: what could make the text look like something it is not is refused, never
 * silently changed, so that what is stored, shown and signed are the same characters. Categories
 * come from `Character.getType`, NFKC from `java.text.Normalizer`, the script blocks are the Swift
 * ones. A platform whose Unicode tables are older than the server's reads a newly assigned character
 * as unassigned and refuses it: the refusal errs on the side of showing nothing.
 */
internal object TextRules {
    /** Why [text] may not be shown, or `null` when it may. */
    fun problem(text: String): String? {
        spacingProblem(text)?.let { return it }
        var index = 0
        while (index < text.length) {
            val codePoint = text.codePointAt(index)
            characterProblem(codePoint)?.let { return it }
            index += Character.charCount(codePoint)
        }
        if (Normalizer.normalize(text, Normalizer.Form.NFKC) != text) {
            return "It has characters that stand for others (full-width, ligature or mathematical forms, or combining marks not composed)."
        }
        if (scripts(text).size > 1) return "It mixes letters of the Latin, Greek and Cyrillic scripts."
        return null
    }

    /** Why [account] may not be shown as an account number: printable ASCII letters, digits, single spaces and `-./` only. */
    fun accountProblem(account: String): String? {
        spacingProblem(account)?.let { return it }
        val allowed = account.all { it in 'A'..'Z' || it in 'a'..'z' || it in '0'..'9' || it in " -./" }
        return if (allowed) null else "An account is ASCII letters, digits, spaces and -./ only."
    }

    /** Empty, spaces at either end, or two in a row. */
    private fun spacingProblem(text: String): String? = when {
        text.isEmpty() -> "It is empty; leave the field out instead."
        text.startsWith(" ") || text.endsWith(" ") || text.contains("  ") -> "It has spaces at an end or two in a row."
        else -> null
    }

    /** Why one character may not be shown. */
    private fun characterProblem(codePoint: Int): String? {
        when (Character.getType(codePoint).toByte()) {
            Character.CONTROL, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> return "It has a control character or a line break."
            Character.FORMAT -> return "It has an invisible formatting character (a direction override, a zero-width character)."
            Character.PRIVATE_USE, Character.SURROGATE, Character.UNASSIGNED -> return "It has a character with no agreed meaning."
            Character.SPACE_SEPARATOR -> if (codePoint != ' '.code) return "It has a space other than the plain space."
        }
        if (LOOK_ALIKE_LETTER_BLOCKS.any { codePoint in it }) return "It has phonetic letters that look like others."
        return null
    }

    /** Blocks of letters that imitate everyday Latin ones and no name is written in: IPA Extensions and the Phonetic Extensions. */
    private val LOOK_ALIKE_LETTER_BLOCKS = listOf(0x0250..0x02AF, 0x1D00..0x1DBF)

    /** The scripts whose letters look alike, by block. */
    private val CONFUSABLE_SCRIPTS: List<Pair<String, List<IntRange>>> = listOf(
        "Latin" to listOf(0x0041..0x005A, 0x0061..0x007A, 0x00C0..0x024F, 0x1E00..0x1EFF, 0x2C60..0x2C7F, 0xA720..0xA7FF, 0xAB30..0xAB6F),
        "Greek" to listOf(0x0370..0x03FF, 0x1F00..0x1FFF),
        "Cyrillic" to listOf(0x0400..0x052F, 0x1C80..0x1C8F, 0x2DE0..0x2DFF, 0xA640..0xA69F),
    )

    /** Which of [CONFUSABLE_SCRIPTS] the letters of [text] belong to. */
    private fun scripts(text: String): Set<String> {
        val found = mutableSetOf<String>()
        var index = 0
        while (index < text.length) {
            val codePoint = text.codePointAt(index)
            if (Character.isAlphabetic(codePoint)) {
                CONFUSABLE_SCRIPTS.firstOrNull { (_, blocks) -> blocks.any { codePoint in it } }?.let { found += it.first }
            }
            index += Character.charCount(codePoint)
        }
        return found
    }
}
