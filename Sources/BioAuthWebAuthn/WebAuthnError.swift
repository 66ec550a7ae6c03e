/// Why a WebAuthn input is refused: a struct over a reason (as swift-webauthn's `WebAuthnError`),
/// so that new reasons do not break a caller's `switch`.
package struct WebAuthnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    package enum Reason: String, Hashable, Sendable {
        /// CBOR outside the accepted subset (see ``CBORError``).
        case invalidCBOR
        /// A COSE key that is not a map of the expected labels and types.
        case invalidCredentialPublicKey
        /// A COSE algorithm (or key type, or curve) other than ES256, EdDSA (Ed25519) and RS256.
        case unsupportedAlgorithm
        /// An EC point not on its curve, or an RSA modulus below 2048 bits.
        case weakOrInvalidKey
    }

    /// What was wrong.
    package let reason: Reason
    /// More about it, for logs (never key material).
    package let detail: String

    /// A refusal for `reason`.
    package init(_ reason: Reason, _ detail: String = "") {
        self.reason = reason
        self.detail = detail
    }

    /// `invalidCredentialPublicKey: x is not 32 bytes`.
    package var description: String { detail.isEmpty ? reason.rawValue : "\(reason.rawValue): \(detail)" }
}
