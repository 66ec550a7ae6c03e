package com.bioauth.kit

import com.bioauth.kit.client.HttpAnswer
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.UrlConnectionTransport
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.protocol.KeyAttestationResult.Verdict
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.simulator.Attacker.KeyHook
import com.bioauth.kit.simulator.SimulatedAttestationAuthority
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.AttestingServer
import com.bioauth.kit.support.LoopbackServer
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.RecordingTransport
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.net.URL
import java.security.MessageDigest

/**
 * Hardware evidence (docs/PROTOCOL.md §4.1): the SDK makes each device key with the server's
 * attestation challenge and sends the Keystore's chain; a server run with `--key-attestation
 * require` registers only keys the (simulated) hardware vouches for, and tells the app why not.
 */
class KeyAttestationTest {
    private fun registrations(account: Account) =
        RawHttp.call("GET", "/v1/biometric/registrations", token = account.client.sessionToken, server = account.server)
            .body.getJSONArray("registrations").let { array -> List(array.length()) { array.getJSONObject(it) } }

    private suspend fun refusal(
        device: SimulatedDevice,
        transport: HttpTransport = UrlConnectionTransport(),
        act: suspend (Account) -> Unit,
    ): BioAuthException {
        val account = Account.signedIn(device, server = AttestingServer.url, transport = transport)
        val error = failure { act(account) }
        assertEquals(Code.SERVER, error.code, "$error")
        assertTrue(registrations(account).isEmpty(), "nothing is registered")
        assertTrue(account.device.keyStore.specs.isEmpty(), "the refused key is deleted here")
        return error
    }

    @Test
    fun `under require, enabling biometrics registers with the Keystore's attestation - verified, TEE or StrongBox, the app's package`() = runSuspend {
        for ((device, level) in listOf(
            SimulatedDevice(apiLevel = 34) to "TEE",
            SimulatedDevice(apiLevel = 34, hasStrongBox = true) to "StrongBox",
            SimulatedDevice(apiLevel = 24) to "TEE",
        )) {
            val account = Account.signedIn(device, server = AttestingServer.url)
            val registration = account.enableBiometrics()
            val attestation = requireNotNull(registration.attestation) { "API ${device.apiLevel}: no attestation" }
            assertEquals(Verdict.VERIFIED, attestation.verdict, "API ${device.apiLevel}: $attestation")
            assertEquals("android-key", attestation.format)
            assertEquals(level, attestation.securityLevel, "API ${device.apiLevel}")
            assertEquals(SimulatedDevice.SAMPLE_PACKAGE, attestation.app)
            assertNotNull(device.keyStore.specs.getValue(account.deviceKeyAlias).attestationChallenge, "made with the server's challenge")
            val listed = registrations(account).single().getJSONObject("attestation")
            assertEquals("verified", listed.getString("verdict"))
            // The key is the one that signs in.
            device.willAnswer(Answer.Present("owner"))
            assertEquals(AuthenticationMethod.BIOMETRIC, account.relaunched().signInWithBiometrics(PROMPT).session.authentication.method)
        }
    }

    @Test
    fun `under require, setting a PIN registers its key with the Keystore's attestation - verified, and the PIN signs in`() = runSuspend {
        for (device in listOf(SimulatedDevice(apiLevel = 34), SimulatedDevice(apiLevel = 31, hasStrongBox = true))) {
            val account = Account.signedIn(device, server = AttestingServer.url)
            account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
            val pin = registrations(account).single { it.getString("kind") == "pin" }
            val attestation = pin.getJSONObject("attestation")
            assertEquals("verified", attestation.getString("verdict"), "$attestation")
            assertEquals(if (device.hasStrongBox) "StrongBox" else "TEE", attestation.getString("security_level"))
            assertEquals(SimulatedDevice.SAMPLE_PACKAGE, attestation.getString("app"))
            assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithPIN(Account.PIN).session.authentication.method)
        }
    }

    @Test
    fun `on API 35 a hooked app that makes the PIN key usable while locked is refused - usable_while_locked, the genuine key is verified`() =
        runSuspend {
            val genuine = Account.signedIn(SimulatedDevice(apiLevel = 35), server = AttestingServer.url)
            genuine.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
            assertEquals("verified", registrations(genuine).single().getJSONObject("attestation").getString("verdict"))
            val device = SimulatedDevice(apiLevel = 35)
            device.attacker.hookKeyGeneration(KeyHook.USABLE_WHILE_LOCKED)
            val error = refusal(device) { it.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false) }
            assertEquals("usable_while_locked", error.rejection?.reason)
        }

    private fun cannotAttest(transient: Boolean) =
        KeystoreFailure(listOf(KeystoreFailure.Kind.PROVIDER_EXCEPTION, KeystoreFailure.Kind.KEYSTORE_EXCEPTION), transient = transient)

    @Test
    fun `a phone that cannot attest makes the key again without the challenge - under prefer it registers without evidence, under require the server refuses`() =
        runSuspend {
            for (transient in listOf(false, true)) {
                val device = SimulatedDevice(apiLevel = 34).apply { keyStore.attestationFault = cannotAttest(transient) }
                val account = Account.signedIn(device, server = AttestingServer.preferring)
                account.enableBiometrics()
                account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
                for (registration in registrations(account)) {
                    assertEquals("absent", registration.getJSONObject("attestation").getString("verdict"), "transient $transient: $registration")
                }
                val signing = device.keyStore.generated.filter { it.kind == KeySpec.Kind.SIGNING_P256 }
                assertTrue(signing.any { it.attestationChallenge != null } && signing.last().attestationChallenge == null, "tried with, then without")
                assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithPIN(Account.PIN).session.authentication.method)
            }
            val device = SimulatedDevice(apiLevel = 34).apply { keyStore.attestationFault = cannotAttest(transient = false) }
            val error = refusal(device) { it.enableBiometrics() }
            assertEquals(ServerErrorCode.ATTESTATION_REQUIRED, error.serverCode)
        }

    @Test
    fun `a transient Keystore failure (isTransientFailure) under require is reported as transient, not turned into a key without evidence`() =
        runSuspend {
            val device = SimulatedDevice(apiLevel = 34).apply { keyStore.attestationFault = cannotAttest(transient = true) }
            val account = Account.signedIn(device, server = AttestingServer.url)
            val error = failure { account.enableBiometrics() }
            assertEquals(Code.SYSTEM_FAILURE, error.code)
            assertTrue(error.isTransient, "$error")
            assertTrue(device.keyStore.generated.all { it.attestationChallenge != null }, "no key without evidence was made")
            device.keyStore.attestationFault = null
            assertEquals(Verdict.VERIFIED, account.enableBiometrics().attestation?.verdict)
        }

    @Test
    fun `a PIN key made on API 24-27, usable while the phone is locked, is refused under require - usable_while_locked reaches the app`() =
        runSuspend {
            val error = refusal(SimulatedDevice(apiLevel = 27)) { it.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false) }
            assertEquals(ServerErrorCode.ATTESTATION_REFUSED, error.serverCode)
            assertEquals("usable_while_locked", error.rejection?.reason)
        }

    @Test
    fun `a hooked app that makes the sign-in key without biometrics is refused - attestation_refused, not_biometric_per_use reaches the app`() =
        runSuspend {
            val device = SimulatedDevice()
            device.attacker.hookKeyGeneration(KeyHook.WITHOUT_USER_AUTHENTICATION)
            val error = refusal(device) { it.enableBiometrics() }
            assertEquals(ServerErrorCode.ATTESTATION_REFUSED, error.serverCode)
            assertEquals(403, error.rejection?.status)
            assertEquals("not_biometric_per_use", error.rejection?.reason)
            assertNull(device.keyStore.generated.last().authentication, "the hook did make a key without user authentication")
        }

    @Test
    fun `an app the server does not allow, by package or by signing certificate, or a chain to another root, is refused for that reason`() = runSuspend {
        val otherDigest = MessageDigest.getInstance("SHA-256").digest("a repackager's certificate".toByteArray())
        val cases = listOf(
            SimulatedDevice(packageName = "com.bioauth.sample.repackaged") to "app_not_allowed",
            SimulatedDevice(signingCertificateDigest = otherDigest) to "app_not_allowed",
            SimulatedDevice(attestationAuthority = SimulatedAttestationAuthority()) to "chain_untrusted",
        )
        for ((device, reason) in cases) {
            val error = refusal(device) { it.enableBiometrics() }
            assertEquals(ServerErrorCode.ATTESTATION_REFUSED, error.serverCode, reason)
            assertEquals(reason, error.rejection?.reason)
        }
    }

    @Test
    fun `on API 23 there is no attestation - no challenge is asked for, no evidence is sent, and a require server answers attestation_required`() =
        runSuspend {
            val wire = RecordingTransport()
            val device = SimulatedDevice(apiLevel = 23)
            val error = refusal(device, wire) { it.enableBiometrics() }
            assertEquals(ServerErrorCode.ATTESTATION_REQUIRED, error.serverCode)
            assertNull(error.rejection?.reason)
            assertFalse(wire.requests.any { it.contains("attestation-challenges") }, "${wire.requests}")
            assertFalse(JSONObject(wire.bodies.getValue("/v1/biometric/registrations")).has("key_attestation"))
            assertNull(device.keyStore.generated.last().attestationChallenge)
        }

    @Test
    fun `a server without the attestation endpoint (404, older than key attestation) - the SDK registers without evidence`() = runSuspend {
        val wire = RecordingTransport()
        val older = object : HttpTransport {
            override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer =
                if (url.path == "/v1/biometric/attestation-challenges") {
                    HttpAnswer(404, null, """{"error":{"code":"not_found","message":"No such resource."}}""".toByteArray())
                } else {
                    wire.send(method, url, body, bearer)
                }
        }
        val account = Account.signedIn(server = LoopbackServer.url, transport = older)
        val registration: Registration = account.enableBiometrics()
        assertEquals(Registration.Status.ACTIVE, registration.status)
        assertFalse(JSONObject(wire.bodies.getValue("/v1/biometric/registrations")).has("key_attestation"))
        assertNull(account.device.keyStore.specs.getValue(account.deviceKeyAlias).attestationChallenge)
    }

    @Test
    fun `a server that looks at no evidence (mode none) gets none - the key is made without a challenge and registers without attestation`() = runSuspend {
        val wire = RecordingTransport()
        val account = Account.signedIn(server = LoopbackServer.url, transport = wire)
        val registration = account.enableBiometrics()
        assertFalse(JSONObject(wire.bodies.getValue("/v1/biometric/registrations")).has("key_attestation"))
        assertNull(account.device.keyStore.specs.getValue(account.deviceKeyAlias).attestationChallenge)
        assertNull(registration.attestation)
    }
}
