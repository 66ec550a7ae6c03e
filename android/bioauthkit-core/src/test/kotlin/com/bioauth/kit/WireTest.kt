package com.bioauth.kit

import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Test
import java.io.File

/** The contract's error codes typed, an unknown one kept, and the server's refusals read into them. */
class WireTest {
    @Test
    fun `ServerErrorCode knows every code in openapi yaml, and an unknown code reads as UNKNOWN`() {
        val docs = File(System.getenv("BIOAUTH_TEST_VECTORS") ?: "docs/test-vectors.json").absoluteFile.parentFile
        val spec = File(docs.parentFile, "openapi.yaml").readText()
        // components.schemas.Error.error.code's enum: one "- code" line each, up to the message.
        val block = spec.substringAfter("\n    Error:\n").substringAfter("enum:").substringBefore("message:")
        val codes = Regex("- ([a-z_]+)").findAll(block).map { it.groupValues[1] }.toSet()
        assertEquals(34, codes.size, "read the whole enum")
        assertEquals(codes, ServerErrorCode.entries.filter { it != ServerErrorCode.UNKNOWN }.map { it.wire }.toSet())
        for (code in codes) assertEquals(code, ServerErrorCode.of(code).wire)
        assertEquals(ServerErrorCode.UNKNOWN, ServerErrorCode.of("a_code_from_the_future"))
    }

    @Test
    fun `a server refusal carries its typed code, the raw code and the status`() = runSuspend {
        val account = Account.signedIn()
        val error = failure { account.client.signIn(account.username, "wrong password") }
        assertEquals(Code.SERVER, error.code)
        assertEquals(ServerErrorCode.INVALID_CREDENTIALS, error.serverCode)
        assertEquals("invalid_credentials", error.rejection!!.rawCode)
        assertEquals(401, error.rejection!!.status)
        assertNotNull(failure { account.client.signUp(account.username, Account.PASSWORD) }.serverCode)
    }
}
