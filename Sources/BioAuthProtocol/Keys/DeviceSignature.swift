import Foundation

/// A signature parsed from the contract's encodings for one algorithm.
///
/// ES256 signatures must be strict DER (X9.62 `SEQUENCE { r INTEGER, s INTEGER }`): definite
/// short-form lengths, minimal positive integers, `0 < r, s < n`, nothing after the sequence.
/// Ed25519 signatures are exactly 64 bytes.
public struct DeviceSignature: Sendable, Equatable {
    /// Why bytes are not a well-formed signature for the algorithm.
    public struct EncodingError: Error, Equatable, Sendable {
        /// What is wrong, for logs and error messages.
        public var reason: String
    }

    enum Value: Sendable, Equatable {
        /// r and s, each left-padded to 32 bytes.
        case es256(Data)
        case ed25519(Data)
    }

    let value: Value

    /// The algorithm the signature was parsed for.
    public var algorithm: SignatureAlgorithm {
        switch value {
        case .es256: .es256
        case .ed25519: .ed25519
        }
    }

    /// Parses signature bytes for `algorithm`.
    public init(algorithm: SignatureAlgorithm, bytes: Data) throws(EncodingError) {
        let bytes = [UInt8](bytes)
        switch algorithm {
        case .ed25519:
            guard bytes.count == 64 else { throw EncodingError(reason: "an Ed25519 signature is 64 bytes") }
            value = .ed25519(Data(bytes))
        case .es256:
            value = .es256(try StrictDERSignature.rawScalars(from: bytes))
        }
    }

    /// Encodes a raw ES256 `r || s` (64 bytes) as strict DER, as Apple's and Android's APIs produce.
    public static func derEncoding(ofRawES256 raw: Data) -> Data {
        StrictDERSignature.encode(raw: [UInt8](raw))
    }
}

/// Strict DER for ECDSA P-256 signatures.
enum StrictDERSignature {
    /// The order n of the P-256 group, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    static func rawScalars(from der: [UInt8]) throws(DeviceSignature.EncodingError) -> Data {
        // The whole signature is at most 72 bytes, so every length must be in short form.
        guard der.count >= 8, der.count <= 72 else { throw .init(reason: "wrong length for a DER ECDSA signature") }
        guard der[0] == 0x30 else { throw .init(reason: "not a DER SEQUENCE") }
        guard Int(der[1]) == der.count - 2 else { throw .init(reason: "SEQUENCE length does not match (or is not short-form)") }
        var index = 2
        let r = try integer(in: der, at: &index)
        let s = try integer(in: der, at: &index)
        guard index == der.count else { throw .init(reason: "bytes after the signature") }
        return Data(r + s)
    }

    /// Reads one strict DER INTEGER in 1...n-1, returned left-padded to 32 bytes.
    private static func integer(in der: [UInt8], at index: inout Int) throws(DeviceSignature.EncodingError) -> [UInt8] {
        guard index + 2 <= der.count, der[index] == 0x02 else { throw .init(reason: "expected an INTEGER") }
        let length = Int(der[index + 1])
        index += 2
        guard length >= 1, length <= 33, index + length <= der.count else { throw .init(reason: "bad INTEGER length") }
        var bytes = Array(der[index..<index + length])
        index += length
        guard bytes[0] & 0x80 == 0 else { throw .init(reason: "negative INTEGER") }
        if bytes[0] == 0x00 {
            guard bytes.count > 1, bytes[1] & 0x80 != 0 else { throw .init(reason: "INTEGER not minimally encoded") }
            bytes.removeFirst()
        }
        guard bytes.count <= 32 else { throw .init(reason: "INTEGER too large") }
        let padded = [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
        guard padded.contains(where: { $0 != 0 }) else { throw .init(reason: "zero INTEGER") }
        guard padded.lexicographicallyPrecedes(order) else { throw .init(reason: "INTEGER not below the group order") }
        return padded
    }

    static func encode(raw: [UInt8]) -> Data {
        precondition(raw.count == 64, "raw ES256 signature must be 64 bytes")
        func integer(_ scalar: ArraySlice<UInt8>) -> [UInt8] {
            var bytes = Array(scalar.drop(while: { $0 == 0 }))
            if bytes.isEmpty { bytes = [0] }
            if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
            return [0x02, UInt8(bytes.count)] + bytes
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return Data([0x30, UInt8(body.count)] + body)
    }
}
