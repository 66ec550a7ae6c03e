/// Why a WebAuthn input is refused: a ``Refusal`` over ``WebAuthnFailureReason``.
package typealias WebAuthnError = Refusal<WebAuthnFailureReason>

/// What was wrong. Each case names the step of the verification procedure (WebAuthn Level 3
/// §7.1 registration, §7.2 authentication) that refused the input.
package enum WebAuthnFailureReason: String, Hashable, Sendable {
    /// CBOR outside the accepted subset (see ``CBORError``).
    case invalidCBOR
    /// A COSE key that is not a map of the expected labels and types.
    case invalidCredentialPublicKey
    /// A COSE algorithm (or key type, or curve) other than ES256, EdDSA (Ed25519) and RS256,
    /// or one the relying party did not offer.
    case unsupportedAlgorithm
    /// An EC point not on its curve, or an RSA modulus below 2048 bits.
    case weakOrInvalidKey
    /// A response that is not the Level 3 JSON form (a field missing or of the wrong type,
    /// `id` not the base64url of `rawId`, `type` not `public-key`).
    case invalidResponse
    /// `clientDataJSON` is not UTF-8 JSON with string `type`, `challenge` and `origin`.
    case invalidClientData
    /// `type` is not `webauthn.create` (registration) or `webauthn.get` (authentication).
    case wrongCeremony
    /// The client data's challenge is not the one this ceremony issued.
    case challengeMismatch
    /// The origin is not one the relying party serves.
    case originNotAllowed
    /// `crossOrigin` is true, or `topOrigin` is present, and the relying party does not allow
    /// being embedded by that top-level origin.
    case crossOriginNotAllowed
    /// Authenticator data too short, with trailing bytes, or whose AT/ED flags disagree with
    /// what follows.
    case invalidAuthenticatorData
    /// `rpIdHash` is not SHA-256 of the relying party id.
    case rpIDMismatch
    /// The UP flag is clear.
    case userNotPresent
    /// User verification is required and the UV flag is clear.
    case userNotVerified
    /// BS set without BE, or BE differing from what the credential was registered with.
    case backupFlagsInconsistent
    /// `fmt` is not a format this relying party verifies.
    case unsupportedAttestationFormat
    /// The attestation statement does not verify under its format's rules.
    case invalidAttestation
    /// The attestation is valid but does not chain to a trust root the operator configured
    /// (or is self or none attestation where the operator requires a trusted one).
    case attestationNotTrusted
    /// The credential id is longer than 1023 bytes, or differs between `rawId` and the
    /// authenticator data.
    case invalidCredentialID
    /// The credential is not one of `allowCredentials`, or `userHandle` names another user.
    case credentialNotAllowed
    /// The assertion signature does not verify with the credential's public key.
    case invalidSignature
    /// The signature counter did not increase: a possible cloned authenticator.
    case signCountRegressed
}
