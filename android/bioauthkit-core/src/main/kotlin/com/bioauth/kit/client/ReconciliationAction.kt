package com.bioauth.kit.client

/** What the client did to bring this device and the server back into agreement. */
public sealed class ReconciliationAction {
    /** The server no longer knows the registration: the local key and the secrets kept for it were deleted. */
    public data class LocalRegistrationRemoved(
        /** The registration. */
        val registrationId: String,
    ) : ReconciliationAction()

    /** This device's key is gone or invalidated: the server's registration was revoked. */
    public data class ServerRegistrationRevoked(
        /** The registration. */
        val registrationId: String,
        /** Why the key is gone. */
        val reason: LocalKeyLoss,
    ) : ReconciliationAction()

    /** The PIN's key is not on this device (a restore from backup) or the PIN moved to another device: the local PIN was forgotten. */
    public data class LocalPINRemoved(
        /** The PIN's registration. */
        val registrationId: String,
    ) : ReconciliationAction()

    /** The secrets kept behind biometrics had lost their key (a restore from backup): they were dropped. */
    public object KeptSecretsDropped : ReconciliationAction()
}
