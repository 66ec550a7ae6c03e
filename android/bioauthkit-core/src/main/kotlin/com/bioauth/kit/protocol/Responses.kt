package com.bioauth.kit.protocol

import org.json.JSONObject

// The answers the SDK reads (openapi.yaml). Each `from` throws org.json's JSONException on a body
// that is not the contract's; the API client turns that into a transport failure.

/** `{user}`: `POST /v1/users`. */
internal data class UserResponse(val user: User) {
    companion object {
        fun from(json: JSONObject) = UserResponse(User.from(json.getJSONObject("user")))
    }
}

/** `{session_token, session, user}`: every sign-in. The token is returned once. */
internal data class SignInResponse(val sessionToken: String, val session: Session, val user: User) {
    companion object {
        fun from(json: JSONObject) = SignInResponse(
            json.getString("session_token"), Session.from(json.getJSONObject("session")), User.from(json.getJSONObject("user")),
        )
    }
}

/** `{session, user}`: `GET /v1/sessions/current` and re-authentication. */
internal data class CurrentSessionResponse(val session: Session, val user: User) {
    companion object {
        fun from(json: JSONObject) = CurrentSessionResponse(Session.from(json.getJSONObject("session")), User.from(json.getJSONObject("user")))
    }
}

/**
 * `{access_token, token_type, expires_in, expires_at}`: `POST /v1/sessions/current/access-token`, a
 * short-lived token for the app's own backend. [expiresIn] is seconds from when it was minted; a
 * client counts them from when it received the answer ([expiresAt] is the server's clock).
 */
internal data class AccessTokenResponse(val accessToken: String, val tokenType: String, val expiresIn: Int, val expiresAt: String) {
    /** Leaves the token out: it is never written to a log. */
    override fun toString(): String = "AccessTokenResponse(token_type=$tokenType, expires_in=$expiresIn, expires_at=$expiresAt)"

    companion object {
        fun from(json: JSONObject) = AccessTokenResponse(
            json.getString("access_token"), json.getString("token_type"), json.getInt("expires_in"), json.getString("expires_at"),
        )
    }
}

/** `{registration_id, challenge, expires_at}`: a registration (or a PIN's key) started. */
internal data class RegistrationStartResponse(val registrationId: String, val challenge: String, val expiresAt: String) {
    /** The challenge's bytes (checked to be base64url when read). */
    val challengeBytes: ByteArray get() = Base64Url.decode(challenge)!!

    companion object {
        fun from(json: JSONObject) = RegistrationStartResponse(
            json.getString("registration_id"), json.base64url("challenge"), json.getString("expires_at"),
        )
    }
}

/** `{registration}`: a registration verified. */
internal data class RegistrationResponse(val registration: Registration) {
    companion object {
        fun from(json: JSONObject) = RegistrationResponse(Registration.from(json.getJSONObject("registration")))
    }
}

/** `{registrations}`: `GET /v1/biometric/registrations`. */
internal data class RegistrationListResponse(val registrations: List<Registration>) {
    companion object {
        fun from(json: JSONObject): RegistrationListResponse {
            val array = json.getJSONArray("registrations")
            return RegistrationListResponse(List(array.length()) { Registration.from(array.getJSONObject(it)) })
        }
    }
}

/** `{challenge_id, challenge, expires_at}`: an authentication challenge. */
internal data class ChallengeResponse(val challengeId: String, val challenge: String, val expiresAt: String) {
    /** The challenge's bytes (checked to be base64url when read). */
    val challengeBytes: ByteArray get() = Base64Url.decode(challenge)!!

    companion object {
        fun from(json: JSONObject) = ChallengeResponse(json.getString("challenge_id"), json.base64url("challenge"), json.getString("expires_at"))
    }
}

/** `{challenge, expires_at}`: a challenge to make a device key with (`setAttestationChallenge`). */
internal data class AttestationChallengeResponse(val challenge: String, val expiresAt: String, val mode: String) {
    /** The challenge's bytes (checked to be base64url when read). */
    val challengeBytes: ByteArray get() = Base64Url.decode(challenge)!!

    /** The server looks at evidence (`mode` `prefer` or `require`); under `none` it keeps no challenge. */
    val wantsEvidence: Boolean get() = mode != "none"

    companion object {
        fun from(json: JSONObject) =
            AttestationChallengeResponse(json.base64url("challenge"), json.getString("expires_at"), json.optString("mode", "none"))
    }
}

/** `{error: {code, message, reason?}}`: every refusal; `reason` with `attestation_refused`. */
internal data class ErrorResponse(val code: String, val message: String, val reason: String?) {
    companion object {
        fun from(json: JSONObject): ErrorResponse {
            val error = json.getJSONObject("error")
            return ErrorResponse(error.getString("code"), error.optString("message"), error.stringOrNull("reason"))
        }
    }
}
