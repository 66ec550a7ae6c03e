package com.bioauth.kit.client

import com.bioauth.kit.device.KeySpecs
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.AttestationChallengeResponse
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.KeyAttestationEvidence

/**
 * Hardware evidence for a new device key (docs/PROTOCOL.md §4.1, "Hardware evidence"): before the
 * key is made, a challenge from the server, which the key spec passes to
 * `setAttestationChallenge`; after, the Keystore's certificate chain for the key, sent with the
 * start of its registration. The server decides what the evidence is worth (`--key-attestation`);
 * the SDK sends it whenever the phone and the server can make and take it.
 */
internal class HardwareEvidence(private val core: ClientCore) {
    /**
     * A challenge to make the key with; `null` when there will be no evidence: on API 23 (no Key
     * Attestation, nothing is asked), from a server that does not look at evidence (`mode`
     * `none`), or from one that does not know the endpoint (404, a server older than key
     * attestation). Any other refusal is the call's error.
     */
    suspend fun challenge(): Challenge? {
        if (!KeySpecs.attestable(core.device.info.apiLevel)) return null
        return try {
            val answer = core.api.call(Endpoint.CREATE_ATTESTATION_CHALLENGE, token = core.requireToken(), read = AttestationChallengeResponse::from)
            if (answer.wantsEvidence) Challenge(answer.challengeBytes, answer.mode == REQUIRE) else null
        } catch (error: BioAuthException) {
            if (error.rejection?.status == NOT_FOUND) null else throw error
        }
    }

    /** An attestation challenge, and whether the server requires evidence (`mode` `require`). */
    class Challenge(val bytes: ByteArray, val required: Boolean)

    /** A key made by [make]: its public key, and the challenge it was attested with (`null`: none). */
    class MadeKey(val publicKey: ByteArray, val attestedWith: ByteArray?)

    /**
     * Makes a key with [challenge] (`make(bytes)`), and when the Keystore fails to (no attestation
     * keys provisioned, `ATTESTATION_KEYS_NOT_PROVISIONED`, Remote Key Provisioning out of keys, a
     * Keymaster that cannot attest), once more without it (`make(null)`): the key then registers
     * without evidence and the server's policy decides. Not retried: a failure the phone's state
     * explains (no lock screen, nothing enrolled), nor a transient one when the server requires
     * evidence (a key without would be refused; the same call later may attest): that failure is
     * the call's, `isTransient` telling the app to try again.
     */
    suspend fun make(challenge: Challenge?, make: suspend (ByteArray?) -> ByteArray): MadeKey {
        if (challenge == null) return MadeKey(make(null), null)
        return try {
            MadeKey(make(challenge.bytes), challenge.bytes)
        } catch (error: BioAuthException) {
            if (error.code != BioAuthException.Code.SYSTEM_FAILURE || (error.isTransient && challenge.required)) throw error
            MadeKey(make(null), null)
        }
    }

    /**
     * The evidence for the key under [alias], made with [challenge]: its certificate chain as the
     * Keystore returns it. `null` without a challenge, or when the Keystore gives no chain (the
     * key then registers without evidence, and a server that requires some says so).
     */
    suspend fun of(alias: String, challenge: ByteArray?): KeyAttestationEvidence? {
        if (challenge == null) return null
        val chain = core.keys.certificateChain(alias) ?: return null
        return KeyAttestationEvidence(challenge, chain)
    }

    private companion object {
        const val NOT_FOUND = 404
        const val REQUIRE = "require"
    }
}
