package com.bioauth.kit

import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.SignedMessage
import com.bioauth.kit.support.TestKeys
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

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
            val key = TestKeys.publicKey(es256, encoded, vector.getString("public_key_encoding"))
            val signature = Base64Url.decode(vector.getString("signature"))!!
            assertTrue(TestKeys.verifies(es256, key, hex(vector.getString("message_hex")), signature), vector.getString("name"))
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
}
