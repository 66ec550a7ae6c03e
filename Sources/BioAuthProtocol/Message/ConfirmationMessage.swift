import Foundation

/// The exact bytes a device key signs to approve a confirmation (protocol v1).
///
/// ```
/// "BIOAUTH-V1" 0x00 | 0x04 | u16 len | rp_id | u16 len | registration_id | u16 len | challenge | u16 len | details_hash
/// ```
/// ``SignedMessage``'s layout with ``Ceremony/confirmation`` and one more field: the SHA-256 of the
/// confirmation's canonical details (``ConfirmationDetails/canonicalJSON(confirmationID:)``), 32
/// bytes. The device computes that hash itself from the fields it shows the user, so a signature
/// covers what was displayed, never a hash someone else handed it.
///
/// For a passkey (the account page) the same bytes, with an empty `registration_id`, are the
/// WebAuthn challenge: the authenticator's signature over `clientDataJSON` then covers them.
public struct ConfirmationMessage: Hashable, Sendable {
    /// The relying-party id the client is configured with (UTF-8).
    public var relyingPartyID: String
    /// The registration whose key signs; empty for a passkey.
    public var registrationID: String
    /// The server's raw challenge bytes: a fresh authentication challenge for a device key, the
    /// ceremony's own for a passkey.
    public var challenge: Data
    /// SHA-256 of the canonical details (``ConfirmationDetails/hash(confirmationID:)``).
    public var detailsHash: Data

    /// Describes a message to sign or verify.
    public init(relyingPartyID: String, registrationID: String, challenge: Data, detailsHash: Data) {
        self.relyingPartyID = relyingPartyID
        self.registrationID = registrationID
        self.challenge = challenge
        self.detailsHash = detailsHash
    }

    /// The bytes to sign.
    ///
    /// - Throws: ``SignedMessage/FieldTooLong`` when a field exceeds 65,535 bytes.
    public func encoded() throws(SignedMessage.FieldTooLong) -> Data {
        var bytes = try SignedMessage(
            ceremony: .confirmation,
            relyingPartyID: relyingPartyID,
            registrationID: registrationID,
            challenge: challenge
        ).encoded()
        try SignedMessage.appendField(detailsHash, named: "details_hash", to: &bytes)
        return bytes
    }
}
