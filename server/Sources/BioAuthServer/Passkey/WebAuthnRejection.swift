import BioAuthWebAuthn

extension Rejection {
    /// The contract's answer to a passkey response the ceremony core refused: the one place a
    /// ``WebAuthnError`` becomes a code. Its message names the failed check, never key material.
    init(_ error: WebAuthnError) {
        switch error.reason {
        case .userNotVerified:
            self.init(.userVerificationRequired, "The authenticator did not verify the user (UV flag clear); user verification is required.")
        case .challengeMismatch:
            self.init(.challengeInvalid, "The response answers another challenge than this ceremony's.")
        case .attestationNotTrusted:
            self.init(.passkeyInvalid, "The authenticator is not one this server trusts (attestation): \(error.detail)")
        default:
            self.init(.passkeyInvalid, "The passkey response was refused: \(error.description).")
        }
    }
}
