package com.bioauth.kit.protocol

import org.json.JSONObject

/** A session as the server describes one (never its token). Times are RFC 3339 text, as sent. */
public data class Session(
    /** The session's id. */
    val id: String,
    /** Whose session it is. */
    val userId: String,
    /** When it was created. */
    val createdAt: String,
    /** When it ends at the latest. */
    val expiresAt: String,
    /** When its user last proved a factor. */
    val authenticatedAt: String,
    /** How it was signed in. */
    val authentication: Authentication,
    /** Every factor it has proven, its sign-in's first. */
    val factors: List<AuthenticationMethod>,
    /** When it last proved the password, a biometric key or a passkey (`null`: never, e.g. a PIN session). */
    val stepUpAt: String?,
    /** Whether the session may only change the password (after a one-time password). */
    val passwordChangeRequired: Boolean,
) {
    /** How a session was signed in. */
    public data class Authentication(
        /** The method. */
        val method: AuthenticationMethod,
        /** The biometric or PIN registration that signed it in, if one did. */
        val registrationId: String?,
    )

    internal companion object {
        fun from(json: JSONObject): Session {
            val authentication = json.getJSONObject("authentication")
            val method = AuthenticationMethod.of(authentication.getString("method"))
            val factors = json.optJSONArray("factors")?.let { array -> List(array.length()) { AuthenticationMethod.of(array.getString(it)) } }
            return Session(
                id = json.getString("id"),
                userId = json.getString("user_id"),
                createdAt = json.getString("created_at"),
                expiresAt = json.getString("expires_at"),
                authenticatedAt = json.getString("authenticated_at"),
                authentication = Authentication(method, authentication.stringOrNull("registration_id")),
                factors = factors ?: listOf(method),
                stepUpAt = json.stringOrNull("step_up_at"),
                passwordChangeRequired = json.optBoolean("password_change_required", false),
            )
        }
    }
}
