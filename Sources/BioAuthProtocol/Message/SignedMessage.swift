import Foundation

/// The exact bytes a device key signs in both ceremonies (protocol v1).
///
/// ```
/// "BIOAUTH-V1" 0x00 | ceremony (1 byte) | u16 len | rp_id | u16 len | registration_id | u16 len | challenge
/// ```
/// All lengths are big-endian. Every variable field is length-prefixed, so the encoding is
/// injective: two different field tuples never produce the same bytes.
public struct SignedMessage: Hashable, Sendable {
    /// The 11-byte domain tag that opens every message: ASCII `BIOAUTH-V1` and a NUL.
    public static let tag: [UInt8] = Array("BIOAUTH-V1".utf8) + [0x00]

    /// Which ceremony the signature is for.
    public var ceremony: Ceremony
    /// The relying-party id the client is configured with (UTF-8).
    public var relyingPartyID: String
    /// The registration the key belongs to.
    public var registrationID: String
    /// The server's raw challenge bytes.
    public var challenge: Data

    /// Describes a message to sign or verify.
    public init(ceremony: Ceremony, relyingPartyID: String, registrationID: String, challenge: Data) {
        self.ceremony = ceremony
        self.relyingPartyID = relyingPartyID
        self.registrationID = registrationID
        self.challenge = challenge
    }

    /// A field longer than a u16 length prefix can describe.
    public struct FieldTooLong: Error, Equatable {
        /// The field's name.
        public var field: String
    }

    /// The bytes to sign.
    ///
    /// - Throws: ``FieldTooLong`` when a field exceeds 65,535 bytes.
    public func encoded() throws(FieldTooLong) -> Data {
        var bytes = Data(Self.tag)
        bytes.append(ceremony.rawValue)
        try Self.appendField(Data(relyingPartyID.utf8), named: "rp_id", to: &bytes)
        try Self.appendField(Data(registrationID.utf8), named: "registration_id", to: &bytes)
        try Self.appendField(challenge, named: "challenge", to: &bytes)
        return bytes
    }

    static func appendField(_ field: Data, named name: String, to bytes: inout Data) throws(FieldTooLong) {
        guard field.count <= Int(UInt16.max) else { throw FieldTooLong(field: name) }
        bytes.append(UInt8(field.count >> 8))
        bytes.append(UInt8(field.count & 0xFF))
        bytes.append(field)
    }
}
