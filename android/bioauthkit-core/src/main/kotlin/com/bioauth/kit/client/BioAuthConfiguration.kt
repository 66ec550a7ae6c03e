package com.bioauth.kit.client

/** What an app tells the SDK once. */
data class BioAuthConfiguration(
    /** The BioAuth server, e.g. `https://auth.bank.example`. */
    val serverUrl: String,
    /** The relying-party id the server was started with (`--relying-party`); signed into every message. */
    val relyingPartyId: String,
    /** Prefix of this SDK's Keystore aliases and storage keys, so that two apps' or accounts' never meet. */
    val namespace: String = "bioauth",
    /** Session lifetime to ask for, in minutes (the server's default when `null`). */
    val sessionDurationMinutes: Int? = null,
)

/** A signed-in session: the user, the session, and what reconciling with the server found. */
data class SignedIn(
    val user: com.bioauth.kit.protocol.User,
    val session: com.bioauth.kit.protocol.Session,
    val reconciliation: ReconciliationAction? = null,
)

/** How to prove a recent sign-in when the server asks for one (`reauthentication_required`). */
sealed class Reauthentication {
    /** With the password. */
    data class Password(val password: String) : Reauthentication()

    /** With a biometric signature by this device's registered key: one prompt. */
    data class Biometrics(val prompt: com.bioauth.kit.device.PromptText) : Reauthentication()
}

/** What reconciling the device with the server did. */
sealed class ReconciliationAction {
    /** The server no longer knows this device's registration: the local key was deleted. */
    data class LocalRegistrationRemoved(val registrationId: String) : ReconciliationAction()

    /** This device's key is gone or invalidated: the server's registration was revoked. */
    data class ServerRegistrationRevoked(val registrationId: String, val reason: String) : ReconciliationAction()
}
