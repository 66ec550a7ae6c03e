package com.bioauth.kit

import com.bioauth.kit.protocol.Base64Url
import com.bioauth.kit.protocol.ConfirmationDetails
import com.bioauth.kit.protocol.ConfirmationMessage
import com.bioauth.kit.protocol.ConfirmationRules
import com.bioauth.kit.protocol.ConfirmationText
import com.bioauth.kit.support.TestKeys
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

/**
 * The Kotlin port of the confirmation contract held to docs/confirmation-vectors.json, which an
 * independent Python implementation of docs/protocol/CONFIRMATIONS.md writes
 * (scripts/make_confirmation_vectors.py): the rules' answers (code and field), the canonical form,
 * the hash, the text, the message bytes, and the test keys' signatures over them.
 */
class ConfirmationVectorsTest {
    private val vectors = JSONObject(File(docs(), "confirmation-vectors.json").readText())

    /** docs/, where scripts/test-android's BIOAUTH_TEST_VECTORS is. */
    private fun docs() = File(System.getenv("BIOAUTH_TEST_VECTORS") ?: "../docs/test-vectors.json").absoluteFile.parentFile

    private fun cases(name: String) = vectors.getJSONArray(name).let { array -> List(array.length()) { array.getJSONObject(it) } }

    private fun hex(bytes: ByteArray) = bytes.joinToString("") { "%02x".format(it) }

    @Test
    fun `the file has the cases it is meant to have`() {
        assertEquals(13, cases("valid").size)
        assertEquals(76, cases("invalid").size)
    }

    @Test
    fun `valid details pass the rules and give the vector's canonical form, hash and text`() {
        for (vector in cases("valid")) {
            val name = vector.getString("name")
            val id = vector.getString("confirmation_id")
            val details = ConfirmationDetails.from(vector.getJSONObject("details"))
            assertNull(ConfirmationRules.problem(details, id), name)
            assertEquals(vector.getString("canonical_json"), String(details.canonicalJson(id), Charsets.UTF_8), name)
            assertEquals(vector.getString("details_hash"), Base64Url.encode(details.hash(id)), name)
            val text = vector.getJSONObject("text")
            val lines = text.getJSONArray("lines")
            assertEquals(ConfirmationText(text.getString("title"), List(lines.length()) { lines.getString(it) }), ConfirmationText.of(details), name)
        }
    }

    @Test
    fun `valid details give the vector's message bytes, and both test keys' signatures verify over them and not over other details`() {
        val keys = vectors.getJSONObject("public_keys")
        for (vector in cases("valid")) {
            val name = vector.getString("name")
            val details = ConfirmationDetails.from(vector.getJSONObject("details"))
            val message = ConfirmationMessage(
                vectors.getString("rp_id"), vectors.getString("registration_id"), Base64Url.decode(vectors.getString("challenge"))!!,
                details.hash(vector.getString("confirmation_id")),
            ).encoded()
            assertEquals(vector.getString("message_hex"), hex(message), name)
            val signatures = vector.getJSONObject("signatures")
            assertEquals(setOf("ES256", "Ed25519"), signatures.keySet())
            for (algorithm in signatures.keySet()) {
                val es256 = algorithm == "ES256"
                val key = TestKeys.publicKey(es256, Base64Url.decode(keys.getString(algorithm))!!, if (es256) "x963" else "raw")
                val signature = Base64Url.decode(signatures.getString(algorithm))!!
                assertTrue(TestKeys.verifies(es256, key, message, signature), "$name $algorithm")
                val otherDetails = message.copyOf().also { it[it.size - 1] = (it[it.size - 1].toInt() xor 1).toByte() }
                assertFalse(TestKeys.verifies(es256, key, otherDetails, signature), "$name $algorithm")
            }
        }
    }

    @Test
    fun `invalid details are refused with the vector's code and field`() {
        for (vector in cases("invalid")) {
            val why = vector.getString("name") + ": " + vector.getString("why")
            val problem = ConfirmationRules.problem(ConfirmationDetails.from(vector.getJSONObject("details")), vector.getString("confirmation_id"))
            assertEquals(vector.getString("code"), problem?.code?.wire, why)
            assertEquals(vector.getString("field"), problem?.field, why)
        }
    }
}
