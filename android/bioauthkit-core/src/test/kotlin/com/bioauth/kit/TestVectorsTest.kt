package com.bioauth.kit

import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.SignedMessage
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.security.KeyFactory
import java.security.Signature
import java.security.spec.X509EncodedKeySpec

/** docs/test-vectors.json from Kotlin: the message bytes, the key encodings and the signatures the protocol fixes. */
class TestVectorsTest {
    private val vectors = JSONObject(File(System.getenv("BIOAUTH_TEST_VECTORS") ?: "../docs/test-vectors.json").readText())

    @Test
    fun `SignedMessage encodes every valid vector's message byte for byte`() {
        val valid = vectors.getJSONArray("valid")
        for (index in 0 until valid.length()) {
            val vector = valid.getJSONObject(index)
            val message = SignedMessage(
                if (vector.getString("ceremony") == "registration") Ceremony.REGISTRATION else Ceremony.AUTHENTICATION,
                vector.getString("rp_id"), vector.getString("registration_id"), Base64Url.decode(vector.getString("challenge"))!!,
            ).encoded()
            assertEquals(vector.getString("message_hex"), message.joinToString("") { "%02x".format(it) }, vector.getString("name"))
        }
    }

    @Test
    fun `every valid vector's signature verifies with its public key through the JCA, as a Keystore signature would`() {
        val valid = vectors.getJSONArray("valid")
        for (index in 0 until valid.length()) {
            val vector = valid.getJSONObject(index)
            val es256 = vector.getString("algorithm") == "ES256"
            val encoded = Base64Url.decode(vector.getString("public_key"))!!
            val spki = when (vector.getString("public_key_encoding")) {
                "spki" -> encoded
                "x963" -> P256_SPKI_PREFIX + encoded
                else -> ED25519_SPKI_PREFIX + encoded
            }
            val key = KeyFactory.getInstance(if (es256) "EC" else "Ed25519").generatePublic(X509EncodedKeySpec(spki))
            val verifier = Signature.getInstance(if (es256) "SHA256withECDSA" else "Ed25519")
            verifier.initVerify(key)
            verifier.update(hex(vector.getString("message_hex")))
            assertTrue(verifier.verify(Base64Url.decode(vector.getString("signature"))), vector.getString("name"))
        }
    }

    @Test
    fun `base64url is strict - padding, the standard alphabet and non-canonical tails are refused`() {
        assertArrayEquals(byteArrayOf(0, 1, 2), Base64Url.decode("AAEC"))
        for (bad in listOf("AAE=", "AA+C", "AA/C", "A", "AAF")) {
            assertNull(Base64Url.decode(bad), bad)
        }
    }

    @Test
    fun `base64url encodes and decodes as the JDK's RFC 4648 codec does, for every length`() {
        val random = java.util.Random(7)
        for (length in 0..64) {
            val bytes = ByteArray(length).also(random::nextBytes)
            val expected = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)
            assertEquals(expected, Base64Url.encode(bytes), "length $length")
            assertArrayEquals(bytes, Base64Url.decode(expected), "length $length")
        }
    }

    private fun hex(text: String) = ByteArray(text.length / 2) { text.substring(it * 2, it * 2 + 2).toInt(16).toByte() }

    private companion object {
        /** SubjectPublicKeyInfo header of an uncompressed P-256 point (RFC 5480). */
        val P256_SPKI_PREFIX = byteArrayOf(
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86.toByte(), 0x48, 0xce.toByte(), 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
            0x86.toByte(), 0x48, 0xce.toByte(), 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        )

        /** SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410). */
        val ED25519_SPKI_PREFIX = byteArrayOf(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00)
    }
}
