package com.bioauth.kit.protocol

import org.json.JSONArray
import org.json.JSONObject

/**
 * A new device key's hardware evidence, as the start of its registration (or `PUT
 * /v1/users/me/pin`) carries it in `key_attestation` (docs/PROTOCOL.md §4.1): `android-key`, the
 * challenge the key was generated with and the Keystore's certificate chain (DER), leaf first.
 */
internal class KeyAttestationEvidence(val challenge: ByteArray, val certificateChain: List<ByteArray>) {
    fun json(): JSONObject = JSONObject()
        .put("format", FORMAT)
        .put("challenge", Base64Url.encode(challenge))
        .put("certificate_chain", JSONArray(certificateChain.map { Base64Url.encode(it) }))

    companion object {
        /** The Android Keystore's format. */
        const val FORMAT = "android-key"
    }
}
