package com.bioauth.kit.protocol

import org.json.JSONObject

// The contract's bodies (openapi.yaml), read and written with org.json, which is part of the
// Android platform. Times stay RFC 3339 text as the server sends them.

/** A user as the server describes one. */
data class User(val id: String, val username: String, val createdAt: String) {
    internal companion object {
        fun from(json: JSONObject) = User(json.getString("id"), json.getString("username"), json.getString("created_at"))
    }
}

/** How a session was signed in: `password`, `biometric` or `pin`, and by which registration. */
data class Authentication(val method: String, val registrationId: String?)

/** A session as the server describes one (never its token). */
data class Session(
    val id: String,
    val userId: String,
    val createdAt: String,
    val expiresAt: String,
    val authenticatedAt: String,
    val authentication: Authentication,
    val passwordChangeRequired: Boolean,
) {
    internal companion object {
        fun from(json: JSONObject): Session {
            val authentication = json.getJSONObject("authentication")
            return Session(
                json.getString("id"), json.getString("user_id"), json.getString("created_at"), json.getString("expires_at"),
                json.getString("authenticated_at"),
                Authentication(authentication.getString("method"), authentication.optStringOrNull("registration_id")),
                json.optBoolean("password_change_required", false),
            )
        }
    }
}

/** A device key registration (biometric or PIN) as the server lists it. */
data class Registration(
    val id: String,
    val kind: String,
    val algorithm: String,
    val label: String,
    val status: String,
    val createdAt: String,
    val lastUsedAt: String?,
) {
    internal companion object {
        fun from(json: JSONObject) = Registration(
            json.getString("id"), json.getString("kind"), json.getString("algorithm"), json.getString("label"),
            json.getString("status"), json.getString("created_at"), json.optStringOrNull("last_used_at"),
        )
    }
}

/** A sign-in's answer: the bearer token (returned once) with its session and user. */
internal class SignInResponse(val sessionToken: String, val session: Session, val user: User) {
    companion object {
        fun from(json: JSONObject) = SignInResponse(
            json.getString("session_token"), Session.from(json.getJSONObject("session")), User.from(json.getJSONObject("user")),
        )
    }
}

/** A challenge to sign: for a registration (`registration_id`) or an authentication (`challenge_id`). */
internal class ChallengeToSign(val id: String, val challenge: ByteArray) {
    companion object {
        fun registration(json: JSONObject) = ChallengeToSign(json.getString("registration_id"), challengeBytes(json))
        fun authentication(json: JSONObject) = ChallengeToSign(json.getString("challenge_id"), challengeBytes(json))

        private fun challengeBytes(json: JSONObject): ByteArray =
            Base64Url.decode(json.getString("challenge")) ?: throw org.json.JSONException("challenge is not base64url")
    }
}

/** `null` for a missing or JSON-null member, else its string. */
internal fun JSONObject.optStringOrNull(name: String): String? = if (isNull(name)) null else getString(name)
