import Foundation

/// Bytes that travel in JSON as a canonical base64url string without padding.
///
/// Decoding a JSON document fails (as a `DecodingError`) when the string is not canonical
/// base64url, so malformed input is rejected before any handler sees it.
public struct Base64URLBytes: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The decoded bytes.
    public var data: Data

    /// Wraps bytes for transport.
    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.data = Data(bytes)
    }

    /// Decodes canonical base64url text, or returns `nil`.
    public init?(base64URL text: String) {
        guard let data = Base64URL.decode(text) else { return nil }
        self.data = data
    }

    /// The canonical base64url text of the bytes.
    public var base64URL: String { Base64URL.encode(data) }

    /// The base64url text, so that values print as they travel.
    public var description: String { base64URL }

    /// Decodes the contract's JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let data = Base64URL.decode(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not canonical unpadded base64url")
        }
        self.data = data
    }

    /// Encodes the contract's JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64URL)
    }
}
