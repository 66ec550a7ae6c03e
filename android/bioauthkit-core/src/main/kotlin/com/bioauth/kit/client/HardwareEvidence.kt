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
    suspend fun challenge(): ByteArray? {
        if (!KeySpecs.attestable(core.device.info.apiLevel)) return null
        return try {
            val answer = core.api.call(Endpoint.CREATE_ATTESTATION_CHALLENGE, token = core.requireToken(), read = AttestationChallengeResponse::from)
            if (answer.wantsEvidence) answer.challengeBytes else null
        } catch (error: BioAuthException) {
            if (error.rejection?.status == NOT_FOUND) null else throw error
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
    }
}
