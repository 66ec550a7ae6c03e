/// What the client did to bring the device and the server back in agreement about a biometric
/// registration, so that no orphan stays on either side.
public enum ReconciliationAction: Sendable, Equatable {
    /// The server no longer knows the registration (revoked elsewhere, or expired): the local
    /// key and the secrets kept for it were deleted. Biometric sign-in must be enabled again.
    case localRegistrationRemoved(registrationID: String)
    /// The device lost the key (an enrollment change invalidated it, or it was deleted): after a
    /// password sign-in the registration was revoked on the server.
    case serverRegistrationRevoked(registrationID: String, reason: LocalKeyLoss)
}
