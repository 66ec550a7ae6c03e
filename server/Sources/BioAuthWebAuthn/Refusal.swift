/// A ceremony core's refusal: a struct over a reason (as swift-webauthn's `WebAuthnError`), so
/// that new reasons do not break a caller's `switch`, with a detail for logs. ``WebAuthnError`` and
/// BioAuthAttestation's `AttestationFailure` are this over their own reasons.
package struct Refusal<R: RawRepresentable & Hashable & Sendable>: Error, Hashable, Sendable, CustomStringConvertible where R.RawValue == String {
    /// The reasons it is over.
    package typealias Reason = R

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
