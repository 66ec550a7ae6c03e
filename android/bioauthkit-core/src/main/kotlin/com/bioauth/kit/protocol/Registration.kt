package com.bioauth.kit.protocol

import org.json.JSONObject

/** A device key registration (biometric or PIN) as the server lists it. */
public data class Registration(
    /** The registration's id: part of every message its key signs. */
    val id: String,
    /** Which factor the key is for. */
    val kind: Kind,
    /** `ES256` or `Ed25519`. */
    val algorithm: String,
    /** The label the app gave it. */
    val label: String,
    /** Whether its key has proven possession yet. */
    val status: Status,
    /** When it was created (RFC 3339). */
    val createdAt: String,
    /** When it last signed in (RFC 3339), if ever. */
    val lastUsedAt: String?,
    /** What the server found of the key's hardware evidence; `null` from a server that does not look (`--key-attestation none`). */
    val attestation: KeyAttestationResult? = null,
) {
    /** Which factor a registration's key is for. */
    public enum class Kind {
        /** A key behind biometrics. */
        BIOMETRIC,

        /** The PIN's device key. */
        PIN,

        /** A kind this SDK does not know. */
        UNKNOWN,
    }

    /** Whether a registration's key has proven possession. */
    public enum class Status {
        /** Started, not yet verified. */
        PENDING,

        /** Verified: its key can sign in. */
        ACTIVE,

        /** A status this SDK does not know. */
        UNKNOWN,
    }

    internal companion object {
        fun from(json: JSONObject) = Registration(
            id = json.getString("id"),
            kind = when (json.getString("kind")) {
                "biometric" -> Kind.BIOMETRIC
                "pin" -> Kind.PIN
                else -> Kind.UNKNOWN
            },
            algorithm = json.getString("algorithm"),
            label = json.getString("label"),
            status = when (json.getString("status")) {
                "pending" -> Status.PENDING
                "active" -> Status.ACTIVE
                else -> Status.UNKNOWN
            },
            createdAt = json.getString("created_at"),
            lastUsedAt = json.stringOrNull("last_used_at"),
            attestation = json.optJSONObject("attestation")?.let { KeyAttestationResult.from(it) },
        )
    }
}
