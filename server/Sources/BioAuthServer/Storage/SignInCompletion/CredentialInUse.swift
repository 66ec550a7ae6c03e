/// The stored credential a proof verified: it must still be current when the session is made, and
/// the completion records its use.
enum CredentialInUse: Sendable, Equatable {
    /// The account's password (kept current by the credential epoch); it must not have expired
    /// (a one-time password expires, and is spent by its sign-in).
    case password
    /// A device key, biometric or PIN, which must still be active; a PIN key's hash is replaced by
    /// `newPINHash` when the PIN was hashed under a retired server key.
    case deviceKey(registrationID: String, newPINHash: String? = nil)
    /// A passkey, which must still be active with the counter it was verified against.
    case passkey(id: String, verifiedSignCount: UInt32, signCount: UInt32, backedUp: Bool)

    /// The credential's id as the audit trail and the session name it.
    var registrationID: String? {
        if case .deviceKey(let id, _) = self { return id }
        return nil
    }

    /// The passkey's id, for a passkey.
    var passkeyID: String? {
        if case .passkey(let id, _, _, _) = self { return id }
        return nil
    }
}
