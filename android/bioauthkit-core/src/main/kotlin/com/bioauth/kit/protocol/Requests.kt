package com.bioauth.kit.protocol

import org.json.JSONObject

// The request bodies the SDK sends (openapi.yaml), each with its JSON, member for member: binary
// values are base64url text as on the wire; optional members are left out when null.

/** A body the SDK sends. */
internal sealed interface RequestBody {
    /** The JSON the server reads. */
    fun json(): JSONObject
}

/** `POST /v1/users`. */
internal data class CreateUserRequest(val username: String, val password: String) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("username", username).put("password", password)
}

/** `POST /v1/sessions/password`. */
internal data class PasswordSignInRequest(val username: String, val password: String, val sessionDurationMinutes: Int?) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("username", username).put("password", password)
        .putIfPresent("session_duration_minutes", sessionDurationMinutes)
}

/** `POST /v1/biometric/registrations`, with the key's hardware evidence when there is some. */
internal data class StartRegistrationRequest(
    val algorithm: String,
    val publicKey: String,
    val label: String?,
    val keyAttestation: KeyAttestationEvidence? = null,
) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("algorithm", algorithm).put("public_key", publicKey)
        .putIfPresent("label", label).putIfPresent("key_attestation", keyAttestation?.json())
}

/** `PUT /v1/users/me/pin`: the PIN and the public key of the device key it is bound to, with its evidence when there is some. */
internal data class SetPINRequest(val pin: String, val algorithm: String, val publicKey: String, val keyAttestation: KeyAttestationEvidence? = null) :
    RequestBody {
    override fun json(): JSONObject = JSONObject().put("pin", pin).put("algorithm", algorithm).put("public_key", publicKey)
        .putIfPresent("key_attestation", keyAttestation?.json())
}

/** `POST /v1/biometric/registrations/{id}/verify`. */
internal data class VerifyRegistrationRequest(val signature: String) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("signature", signature)
}

/** `POST /v1/biometric/challenges`. */
internal data class CreateChallengeRequest(val registrationId: String) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("registration_id", registrationId)
}

/** `POST /v1/sessions/biometric`. */
internal data class BiometricSignInRequest(val challengeId: String, val signature: String, val sessionDurationMinutes: Int?) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("challenge_id", challengeId).put("signature", signature)
        .putIfPresent("session_duration_minutes", sessionDurationMinutes)
}

/** `POST /v1/sessions/pin`: the PIN key's signature over a fresh challenge, and the PIN. */
internal data class PINSignInRequest(val challengeId: String, val signature: String, val pin: String, val sessionDurationMinutes: Int?) :
    RequestBody {
    override fun json(): JSONObject = JSONObject().put("challenge_id", challengeId).put("signature", signature)
        .put("pin", pin).putIfPresent("session_duration_minutes", sessionDurationMinutes)
}

/** `PUT /v1/users/me/password`. */
internal data class ChangePasswordRequest(val currentPassword: String, val newPassword: String) : RequestBody {
    override fun json(): JSONObject = JSONObject().put("current_password", currentPassword).put("new_password", newPassword)
}

/** `POST /v1/sessions/current/reauthenticate`: the password, or a biometric key's signature over a fresh challenge. */
internal sealed class ReauthenticateRequest : RequestBody {
    /** With the password. */
    data class Password(val password: String) : ReauthenticateRequest() {
        override fun json(): JSONObject = JSONObject().put("password", password)
    }

    /** With a device key's signature. */
    data class Signature(val challengeId: String, val signature: String) : ReauthenticateRequest() {
        override fun json(): JSONObject = JSONObject().put("challenge_id", challengeId).put("signature", signature)
    }
}
