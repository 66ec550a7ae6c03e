package com.bioauth.kit

import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.protocol.Confirmation
import com.bioauth.kit.protocol.ConfirmationKind
import com.bioauth.kit.protocol.ConfirmationStatus
import com.bioauth.kit.protocol.ConfirmationText
import com.bioauth.kit.protocol.KeyAttestationResult
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.Session
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/** Values a newer server adds, which this SDK has never seen, decode as UNKNOWN and fail nothing else in the answer. */
class OpenVocabularyTest {
    @Test
    fun `a session, a registration and an attestation verdict with values this SDK never saw decode`() {
        val session = Session.from(
            JSONObject(
                """{"id":"ses_1","user_id":"usr_1","created_at":"2026-11-21T20:18:25.000Z","expires_at":"2026-11-21T21:18:25.000Z",
                   "authentication":{"method":"palm_vein"},"authenticated_at":"2026-11-21T20:18:25.000Z","factors":["palm_vein","password"]}""",
            ),
        )
        assertEquals(AuthenticationMethod.UNKNOWN, session.authentication.method)
        assertEquals(listOf(AuthenticationMethod.UNKNOWN, AuthenticationMethod.PASSWORD), session.factors)
        val registration = Registration.from(
            JSONObject(
                """{"id":"reg_1","kind":"passphrase","algorithm":"ES256","label":"","status":"suspended",
                   "created_at":"2026-11-21T20:18:25.000Z","attestation":{"verdict":"provisional"}}""",
            ),
        )
        assertEquals(Registration.Kind.UNKNOWN, registration.kind)
        assertEquals(Registration.Status.UNKNOWN, registration.status)
        assertEquals(KeyAttestationResult.Verdict.UNKNOWN, registration.attestation?.verdict)
    }

    @Test
    fun `a confirmation of a kind and a status this SDK never saw decodes, and has no text to show`() {
        val confirmation = Confirmation.from(
            JSONObject(
                """{"id":"cnf_1","user_id":"usr_1","status":"disputed","details":{"kind":"loan","action":"Borrow 5 EUR"},
                   "details_hash":"AAEC","text":{"title":"Borrow 5 EUR","lines":[]},
                   "created_at":"2026-11-21T20:18:25.000Z","expires_at":"2026-11-21T20:23:25.000Z"}""",
            ),
        )
        assertEquals(ConfirmationStatus.UNKNOWN, confirmation.status)
        assertEquals(ConfirmationKind.UNKNOWN, confirmation.details.kind)
        assertNull(ConfirmationText.of(confirmation.details))
    }
}
