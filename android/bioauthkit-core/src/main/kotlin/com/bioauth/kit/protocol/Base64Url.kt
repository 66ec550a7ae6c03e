package com.bioauth.kit.protocol

import java.util.Base64

/** Unpadded base64url, the contract's encoding of every binary value (`java.util.Base64`, API 26+). */
object Base64Url {
    private val encoder = Base64.getUrlEncoder().withoutPadding()
    private val decoder = Base64.getUrlDecoder()

    /** Encodes without padding. */
    fun encode(bytes: ByteArray): String = encoder.encodeToString(bytes)

    /** Decodes strict unpadded base64url; `null` for anything else (padding, `+`, `/`, white space). */
    fun decode(text: String): ByteArray? {
        if (text.any { !(it in 'A'..'Z' || it in 'a'..'z' || it in '0'..'9' || it == '-' || it == '_') }) return null
        if (text.length % 4 == 1) return null
        return try {
            val bytes = decoder.decode(text)
            // Non-canonical trailing bits re-encode differently: refuse them, as the server does.
            if (encode(bytes) == text) bytes else null
        } catch (_: IllegalArgumentException) {
            null
        }
    }
}
