package com.bioauth.kit.protocol

/**
 * Unpadded base64url (RFC 4648 §5), the contract's encoding of every binary value. Written out
 * here because `java.util.Base64` needs API 26 and the SDK runs from API 23.
 */
public object Base64Url {
    private const val ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /** Encodes without padding. */
    public fun encode(bytes: ByteArray): String {
        val out = StringBuilder((bytes.size * 4 + 2) / 3)
        var index = 0
        while (index < bytes.size) {
            val remaining = minOf(3, bytes.size - index)
            var block = 0
            for (offset in 0 until 3) block = (block shl 8) or (if (offset < remaining) bytes[index + offset].toInt() and 0xFF else 0)
            for (sextet in 0..remaining) out.append(ALPHABET[(block shr (18 - 6 * sextet)) and 0x3F])
            index += 3
        }
        return out.toString()
    }

    /**
     * Decodes strict unpadded base64url; `null` for anything else (padding, `+`, `/`, white space,
     * a dangling character, or non-zero trailing bits, which the server refuses too).
     */
    public fun decode(text: String): ByteArray? {
        if (text.length % 4 == 1) return null
        val out = ByteArray(text.length * 3 / 4)
        var bits = 0
        var count = 0
        var written = 0
        for (char in text) {
            val value = ALPHABET.indexOf(char)
            if (value < 0) return null
            bits = (bits shl 6) or value
            count += 6
            if (count >= 8) {
                count -= 8
                out[written++] = (bits shr count).toByte()
                bits = bits and ((1 shl count) - 1)
            }
        }
        return if (bits == 0) out else null
    }
}
