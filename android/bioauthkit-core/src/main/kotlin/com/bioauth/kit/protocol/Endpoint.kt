package com.bioauth.kit.protocol

/** The contract's calls this SDK makes, each named by its `operationId` in openapi.yaml. */
internal enum class Endpoint(val method: String, val template: String) {
    CREATE_USER("POST", "/v1/users"),
    SET_PIN("PUT", "/v1/users/me/pin"),
    CHANGE_PASSWORD("PUT", "/v1/users/me/password"),
    SIGN_IN_WITH_PASSWORD("POST", "/v1/sessions/password"),
    SIGN_IN_WITH_PIN("POST", "/v1/sessions/pin"),
    SIGN_IN_WITH_BIOMETRIC("POST", "/v1/sessions/biometric"),
    GET_CURRENT_SESSION("GET", "/v1/sessions/current"),
    SIGN_OUT("DELETE", "/v1/sessions/current"),
    REAUTHENTICATE("POST", "/v1/sessions/current/reauthenticate"),
    CREATE_ACCESS_TOKEN("POST", "/v1/sessions/current/access-token"),
    SIGN_OUT_ELSEWHERE("DELETE", "/v1/sessions"),
    CREATE_ATTESTATION_CHALLENGE("POST", "/v1/biometric/attestation-challenges"),
    START_REGISTRATION("POST", "/v1/biometric/registrations"),
    LIST_REGISTRATIONS("GET", "/v1/biometric/registrations"),
    VERIFY_REGISTRATION("POST", "/v1/biometric/registrations/{id}/verify"),
    DELETE_REGISTRATION("DELETE", "/v1/biometric/registrations/{id}"),
    CREATE_CHALLENGE("POST", "/v1/biometric/challenges"),
    LIST_CONFIRMATIONS("GET", "/v1/confirmations"),
    APPROVE_CONFIRMATION("POST", "/v1/confirmations/{id}/approve"),
    DECLINE_CONFIRMATION("POST", "/v1/confirmations/{id}/decline");

    /** The path, with [id] where `{id}` stands; an id exactly when the template has a place for one. */
    fun path(id: String? = null): String {
        require((id != null) == template.contains("{id}")) { "$template ${if (id == null) "needs" else "takes no"} id" }
        return if (id == null) template else template.replace("{id}", id)
    }
}
