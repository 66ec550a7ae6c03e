package com.bioauth.kit.support

import java.math.BigInteger

/**
 * A tiny DER reader for the tests: one element (class, constructed bit, tag number, content) and
 * its children; strict enough to reject indefinite or non-minimal lengths.
 */
class DerElement(val tagClass: Int, val constructed: Boolean, val tag: Int, val content: ByteArray) {
    /** The elements inside a constructed one, in order. */
    val children: List<DerElement> by lazy { if (constructed) readAll(content) else emptyList() }

    /** An INTEGER's (or ENUMERATED's) value. */
    val integer: BigInteger get() = BigInteger(content)

    companion object {
        const val UNIVERSAL = 0
        const val CONTEXT = 2

        /** Reads exactly one element from [bytes]; anything after it is an error. */
        fun parse(bytes: ByteArray): DerElement {
            val (element, end) = read(bytes, 0)
            require(end == bytes.size) { "${bytes.size - end} bytes after the element" }
            return element
        }

        private fun readAll(bytes: ByteArray): List<DerElement> {
            val out = mutableListOf<DerElement>()
            var offset = 0
            while (offset < bytes.size) {
                val (element, end) = read(bytes, offset)
                out += element
                offset = end
            }
            return out
        }

        private fun read(bytes: ByteArray, start: Int): Pair<DerElement, Int> {
            var offset = start
            val first = bytes[offset++].toInt() and 0xFF
            var tag = first and 0x1F
            if (tag == 0x1F) {
                tag = 0
                do {
                    val next = bytes[offset++].toInt() and 0xFF
                    tag = (tag shl 7) or (next and 0x7F)
                } while (next and 0x80 != 0)
                require(tag >= 31) { "a high tag number form for $tag" }
            }
            var length = bytes[offset++].toInt() and 0xFF
            if (length >= 0x80) {
                val count = length and 0x7F
                require(count in 1..3) { "length of $count bytes" }
                length = 0
                repeat(count) { length = (length shl 8) or (bytes[offset++].toInt() and 0xFF) }
                require(length >= 0x80 && (count == 1 || length >= 1 shl (8 * (count - 1)))) { "a non-minimal length" }
            }
            require(offset + length <= bytes.size) { "a length past the end" }
            val element = DerElement(first ushr 6, first and 0x20 != 0, tag, bytes.copyOfRange(offset, offset + length))
            return element to offset + length
        }
    }
}
