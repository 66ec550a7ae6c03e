package com.bioauth.kit.simulator

import java.io.ByteArrayOutputStream
import java.math.BigInteger
import java.text.SimpleDateFormat
import java.util.Date
import java.util.Locale
import java.util.TimeZone

/**
 * A small DER encoder (ITU-T X.690 §10), enough for X.509 certificates and Android's key
 * description: definite lengths in their shortest form, minimal INTEGERs, `SET OF` sorted by
 * encoding, explicit context tags of any number (the key description's reach 709).
 */
internal object Der {
    fun sequence(vararg items: ByteArray): ByteArray = tlv(byteArrayOf(0x30), concat(items.toList()))

    fun sequence(items: List<ByteArray>): ByteArray = tlv(byteArrayOf(0x30), concat(items))

    /** A `SET OF`: its elements in ascending order of their encodings (X.690 §11.6). */
    fun setOf(items: List<ByteArray>): ByteArray = tlv(byteArrayOf(0x31), concat(items.sortedWith(::compareUnsigned)))

    fun integer(value: Long): ByteArray = integer(BigInteger.valueOf(value))

    /** Two's complement, minimal: `BigInteger.toByteArray` is exactly that. */
    fun integer(value: BigInteger): ByteArray = tlv(byteArrayOf(0x02), value.toByteArray())

    fun enumerated(value: Int): ByteArray = tlv(byteArrayOf(0x0A), BigInteger.valueOf(value.toLong()).toByteArray())

    fun boolean(value: Boolean): ByteArray = tlv(byteArrayOf(0x01), byteArrayOf(if (value) 0xFF.toByte() else 0))

    fun nul(): ByteArray = byteArrayOf(0x05, 0x00)

    fun octetString(bytes: ByteArray): ByteArray = tlv(byteArrayOf(0x04), bytes)

    /** A BIT STRING of whole bytes, or of [bits] with [unusedBits] trailing bits unused (a named bit list). */
    fun bitString(bits: ByteArray, unusedBits: Int = 0): ByteArray = tlv(byteArrayOf(0x03), byteArrayOf(unusedBits.toByte()) + bits)

    fun utf8String(text: String): ByteArray = tlv(byteArrayOf(0x0C), text.toByteArray(Charsets.UTF_8))

    /** An OBJECT IDENTIFIER from its dotted form. */
    fun oid(dotted: String): ByteArray {
        val arcs = dotted.split('.').map { it.toLong() }
        val body = ByteArrayOutputStream()
        body.write(base128(arcs[0] * 40 + arcs[1]))
        for (arc in arcs.drop(2)) body.write(base128(arc))
        return tlv(byteArrayOf(0x06), body.toByteArray())
    }

    /** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
    fun time(date: Date): ByteArray {
        val year = SimpleDateFormat("yyyy", Locale.ROOT).apply { timeZone = TimeZone.getTimeZone("UTC") }.format(date).toInt()
        val utc = year < 2050
        val format = SimpleDateFormat(if (utc) "yyMMddHHmmss'Z'" else "yyyyMMddHHmmss'Z'", Locale.ROOT)
        format.timeZone = TimeZone.getTimeZone("UTC")
        return tlv(byteArrayOf(if (utc) 0x17 else 0x18), format.format(date).toByteArray(Charsets.US_ASCII))
    }

    /** `[number] EXPLICIT`: a context-specific constructed tag around [content]. */
    fun explicit(number: Int, content: ByteArray): ByteArray {
        val identifier = if (number < 31) byteArrayOf((0xA0 or number).toByte()) else byteArrayOf(0xBF.toByte()) + base128(number.toLong())
        return tlv(identifier, content)
    }

    private fun tlv(identifier: ByteArray, content: ByteArray): ByteArray = identifier + length(content.size) + content

    private fun length(size: Int): ByteArray {
        if (size < 0x80) return byteArrayOf(size.toByte())
        var bytes = ByteArray(0)
        var rest = size
        while (rest > 0) {
            bytes = byteArrayOf((rest and 0xFF).toByte()) + bytes
            rest = rest ushr 8
        }
        return byteArrayOf((0x80 or bytes.size).toByte()) + bytes
    }

    /** Base 128, most significant group first, the high bit on every byte but the last. */
    private fun base128(value: Long): ByteArray {
        var bytes = byteArrayOf((value and 0x7F).toByte())
        var rest = value ushr 7
        while (rest > 0) {
            bytes = byteArrayOf(((rest and 0x7F) or 0x80).toByte()) + bytes
            rest = rest ushr 7
        }
        return bytes
    }

    private fun concat(items: List<ByteArray>): ByteArray {
        val out = ByteArrayOutputStream()
        items.forEach { out.write(it) }
        return out.toByteArray()
    }

    private fun compareUnsigned(a: ByteArray, b: ByteArray): Int {
        for (index in 0 until minOf(a.size, b.size)) {
            val difference = (a[index].toInt() and 0xFF) - (b[index].toInt() and 0xFF)
            if (difference != 0) return difference
        }
        return a.size - b.size
    }
}
