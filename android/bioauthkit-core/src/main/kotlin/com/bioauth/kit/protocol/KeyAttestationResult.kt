package com.bioauth.kit.protocol

import org.json.JSONObject

/**
 * What the server found of a registration's hardware evidence (`attestation` in the registration,
 * docs/PROTOCOL.md §4.1). A server run with `--key-attestation none` sends none.
 */
public data class KeyAttestationResult(
    /** `android-key` or `apple-app-attest`; `null` when no evidence came. */
    val format: String?,
    /** What the server concluded. */
    val verdict: Verdict,
    /** When [verdict] is [Verdict.REFUSED]: the rule the evidence broke (as `attestation_refused`'s `reason`). */
    val reason: String?,
    /** Where the key lives, when verified: `TEE`, `StrongBox` (or `Secure Enclave` for an iOS key). */
    val securityLevel: String?,
    /** The Android package (or iOS App ID) that made the key, when verified. */
    val app: String?,
) {
    /** The server's conclusion about a key's evidence. */
    public enum class Verdict {
        /** The evidence verified: the hardware vouches for the key as the SDK made it. */
        VERIFIED,

        /** Evidence came and broke a rule ([reason]); the key registered only because the server prefers, not requires, evidence. */
        REFUSED,

        /** No evidence came (API 23, or an app that did not send any). */
        ABSENT,

        /** A verdict this SDK does not know. */
        UNKNOWN,
    }

    internal companion object {
        fun from(json: JSONObject) = KeyAttestationResult(
            format = json.stringOrNull("format"),
            verdict = when (json.getString("verdict")) {
                "verified" -> Verdict.VERIFIED
                "refused" -> Verdict.REFUSED
                "absent" -> Verdict.ABSENT
                else -> Verdict.UNKNOWN
            },
            reason = json.stringOrNull("reason"),
            securityLevel = json.stringOrNull("security_level"),
            app = json.stringOrNull("app"),
        )
    }
}
