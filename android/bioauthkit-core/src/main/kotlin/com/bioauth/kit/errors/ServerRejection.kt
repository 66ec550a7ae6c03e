package com.bioauth.kit.errors

import com.bioauth.kit.protocol.ServerErrorCode

/** A refusal as the server sent it: the HTTP status and the contract's error body. */
public data class ServerRejection(
    /** The HTTP status. */
    val status: Int,
    /** The contract's code ([ServerErrorCode.UNKNOWN] for one this SDK does not know). */
    val code: ServerErrorCode,
    /** The code as sent. */
    val rawCode: String,
    /** The server's message (English, for logs). */
    val message: String,
    /** `Retry-After`, in seconds, for 429 and 503. */
    val retryAfterSeconds: Int?,
    /**
     * With [ServerErrorCode.ATTESTATION_REFUSED]: the stable code of the rule the key's hardware
     * evidence broke, as the server sent it (`chain_untrusted`, `not_biometric_per_use`,
     * `usable_while_locked`, `app_not_allowed`, `challenge_mismatch`, … : openapi.yaml lists them;
     * a newer server may add some). `null` for every other refusal.
     */
    val reason: String? = null,
)
