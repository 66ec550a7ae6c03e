import Foundation

/// The bytes an iOS app binds a new device key to with App Attest (protocol v1): their SHA-256 is
/// the `clientDataHash` it passes to `DCAppAttestService.attestKey` or `generateAssertion`, so
/// Apple's attestation, or the attested key's assertion, vouches that the genuine app made this
/// key for this server's challenge.
///
/// ```
/// "BIOAUTH-V1" 0x00 | 0x03 | u16 len | rp_id | u16 len | public_key | u16 len | challenge
/// ```
/// The layout is ``SignedMessage``'s, with its own ceremony byte, so neither can stand for the other.
public struct KeyAttestationMessage: Hashable, Sendable {
    /// The ceremony byte: after ``Ceremony/registration`` and ``Ceremony/authentication``.
    public static let ceremony: UInt8 = 0x03

    /// The relying-party id the client is configured with (UTF-8).
    public var relyingPartyID: String
    /// The new device key's public key, exactly as the registration sends it.
    public var publicKey: Data
    /// The server's attestation challenge.
    public var challenge: Data

    /// Describes the message for a key.
    public init(relyingPartyID: String, publicKey: Data, challenge: Data) {
        self.relyingPartyID = relyingPartyID
        self.publicKey = publicKey
        self.challenge = challenge
    }

    /// The bytes to hash.
    ///
    /// - Throws: ``SignedMessage/FieldTooLong`` when a field exceeds 65,535 bytes.
    public func encoded() throws(SignedMessage.FieldTooLong) -> Data {
        var bytes = Data(SignedMessage.tag)
        bytes.append(Self.ceremony)
        try SignedMessage.appendField(Data(relyingPartyID.utf8), named: "rp_id", to: &bytes)
        try SignedMessage.appendField(publicKey, named: "public_key", to: &bytes)
        try SignedMessage.appendField(challenge, named: "challenge", to: &bytes)
        return bytes
    }
}
