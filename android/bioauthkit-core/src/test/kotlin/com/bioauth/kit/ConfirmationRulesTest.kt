package com.bioauth.kit

import com.bioauth.kit.protocol.ConfirmationDetails
import com.bioauth.kit.protocol.ConfirmationKind
import com.bioauth.kit.protocol.ConfirmationMessage
import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ConfirmationText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/**
 * The Kotlin port of the confirmation contract held to the Swift suite's answers
 * (Tests/BioAuthProtocolTests/ConfirmationRulesTests.swift), case for case: the rules, the text
 * and the canonical form.
 */
class ConfirmationRulesTest {
    private val id = "cnf_0123456789abcdef0123456789abcdef"
    private val payment = ConfirmationDetails.payment("12.50", "EUR", "Alice Example", "DE89 3704 0044 0532 0130 00", "Invoice 42")

    private fun code(details: ConfirmationDetails): String? = ConfirmationRules.problem(details, id)?.code?.wire

    private fun payee(name: String) = ConfirmationDetails.payment("1.00", "EUR", name)

    @Test
    fun `the canonical form sorts members, has no whitespace and escapes as RFC 8785 does`() {
        assertEquals(
            """{"amount":"12.50","confirmation_id":"cnf_0123456789abcdef0123456789abcdef","currency":"EUR","kind":"payment",""" +
                """"payee_account":"DE89 3704 0044 0532 0130 00","payee_name":"Alice Example","reference":"Invoice 42"}""",
            String(payment.canonicalJson(id), Charsets.UTF_8),
        )
        val escaped = ConfirmationDetails.action("a\"b\\c\u0001\ndé€\uD83D\uDE00").canonicalJson("x")
        assertEquals("""{"action":"a\"b\\c\u0001\ndé€😀","confirmation_id":"x","kind":"action"}""", String(escaped, Charsets.UTF_8))
    }

    @Test
    fun `the text is derived from the fields alone`() {
        val text = ConfirmationText.of(payment)?.text
        assertEquals("Pay 12.50 EUR to Alice Example\nAccount: DE89 3704 0044 0532 0130 00\nReference: Invoice 42", text)
        assertEquals("Add Bob Example as a payee", ConfirmationText.of(ConfirmationDetails.action("Add Bob Example as a payee"))?.text)
        assertNull(ConfirmationText.of(ConfirmationDetails(ConfirmationKind.UNKNOWN, action = "x")))
    }

    @Test
    fun `well-formed details pass`() {
        assertNull(code(payment))
        assertNull(code(ConfirmationDetails.payment("1000", "JPY", "株式会社 山田")))
        assertNull(code(ConfirmationDetails.payment("0.125", "BHD", "Łukasz Müller-Øre")))
        assertNull(code(ConfirmationDetails.payment("5", "RUB", "Сергей Иванов")))
        assertNull(code(ConfirmationDetails.action("Add Bob Example as a payee", reference = "R-1")))
    }

    @Test
    fun `amounts that are not positive decimals with the currency's digits are refused`() {
        for (amount in listOf("", "1,00", "1.", ".5", "01.00", "-1", "+1", "1e3", "0", "0.00", "1.234", " 1", "１", "1000000000000000")) {
            assertEquals("invalid_amount", code(ConfirmationDetails.payment(amount, "EUR", "A")), amount)
        }
        assertEquals("invalid_amount", code(ConfirmationDetails.payment("1.5", "JPY", "A")))
        for (currency in listOf("eur", "XXX", "EURO", "", "XAU")) {
            assertEquals("invalid_currency", code(ConfirmationDetails.payment("1", currency, "A")), currency)
        }
    }

    @Test
    fun `controls, direction overrides, invisible and look-alike characters in shown text are refused`() {
        val names = listOf(
            "Alice\u202Eevil", "Alice\u200B", "Alice\nBob", "Alice\u0007", "Alice\u00A0Bob", "Alice  Bob", " Alice", "Alice ",
            "Pаypal", "ＡＬＩＣＥ", "\uD835\uDC00lice", "ﬁnance", "e\u0301clair", "Alice\uE000", "ɑlice", "",
        )
        for (name in names) {
            assertEquals("invalid_confirmation_text", code(payee(name)), name.codePoints().toArray().joinToString { Integer.toHexString(it) })
        }
        assertEquals("invalid_confirmation_text", code(ConfirmationDetails.payment("1", "EUR", "A", payeeAccount = "DE89\u20241")))
    }

    @Test
    fun `kinds, missing and foreign fields, and sizes are refused with their own codes`() {
        assertEquals("invalid_confirmation", code(ConfirmationDetails(ConfirmationKind.UNKNOWN, action = "x")))
        assertEquals("invalid_confirmation", code(ConfirmationDetails(ConfirmationKind.PAYMENT, amount = "1", currency = "EUR")))
        assertEquals("invalid_confirmation", code(ConfirmationDetails(ConfirmationKind.ACTION, currency = "EUR", action = "x")))
        assertEquals("confirmation_too_large", code(payee("a".repeat(71))))
        assertNull(code(ConfirmationDetails.action("a".repeat(140))))
        val wide = "\uD840\uDC00".repeat(140)
        assertEquals("confirmation_too_large", code(ConfirmationDetails.action(wide, reference = wide)))
    }

    @Test
    fun `the confirmation message is the signed message with ceremony 0x04 and the details hash as a fourth field`() {
        val hash = payment.hash(id)
        val bytes = ConfirmationMessage("bank.example", "reg_1", byteArrayOf(1, 2, 3), hash).encoded()
        val expected = "BIOAUTH-V1".toByteArray() + byteArrayOf(0, 4) + byteArrayOf(0, 12) + "bank.example".toByteArray() +
            byteArrayOf(0, 5) + "reg_1".toByteArray() + byteArrayOf(0, 3, 1, 2, 3) + byteArrayOf(0, 32) + hash
        assertEquals(expected.toList(), bytes.toList())
        assertEquals(32, hash.size)
    }
}
