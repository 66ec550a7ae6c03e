package com.bioauth.kit

import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

/** The contract's error codes typed, an unknown one kept, and the server's refusals read into them. */
class WireTest {
    @Test
    fun `ServerErrorCode knows every code of the contract and of openapi yaml, and an unknown code reads as UNKNOWN`() {
        val root = File(System.getenv("BIOAUTH_TEST_VECTORS") ?: "docs/test-vectors.json").absoluteFile.parentFile.parentFile
        // The contract's codes: each `Self(rawValue: "…")` of BioAuthProtocol's ErrorCode.
        val contract = Regex("""Self\(rawValue: "([a-z_]+)"\)""")
            .findAll(File(root, "Sources/BioAuthProtocol/Wire/ErrorCode.swift").readText()).map { it.groupValues[1] }.toSet()
        assertTrue(contract.size >= 44, "read the whole ErrorCode")
        assertEquals(contract, ServerErrorCode.entries.filter { it != ServerErrorCode.UNKNOWN }.map { it.wire }.toSet())
        // components.schemas.Error.error.code's enum: one "- code" line each, up to the message.
        val block = File(root, "openapi.yaml").readText().substringAfter("\n    Error:\n").substringAfter("enum:").substringBefore("message:")
        val documented = Regex("- ([a-z_]+)").findAll(block).map { it.groupValues[1] }.toSet()
        assertTrue(documented.size >= 34, "read the whole enum")
        assertEquals(emptySet<String>(), documented - contract, "codes in openapi.yaml the SDK does not know")
        for (code in contract) assertEquals(code, ServerErrorCode.of(code).wire)
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
