package com.bioauth.kit.client

/**
 * A short-lived access token for the app's own backend ([BioAuthClient.accessToken]): send it as
 * `Authorization: Bearer <token>` ([authorizationHeader]); the backend verifies it against the
 * server's key set without calling BioAuth. Never send it to BioAuth itself.
 */
public data class AccessToken(
    /** The token (a JWS, compact form). */
    public val token: String,
    /**
     * When it expires, in milliseconds since the epoch by this device's clock: when the client
     * received it plus its lifetime (`expires_in`), so a phone whose clock is wrong still counts it right.
     */
    public val expiresAtMillis: Long,
) {
    /** `Bearer <token>`: the `Authorization` header's value. */
    public val authorizationHeader: String get() = "Bearer $token"

    /** The expiry only: a token is never written to a log. */
    override fun toString(): String = "AccessToken(expiresAtMillis=$expiresAtMillis)"
}
