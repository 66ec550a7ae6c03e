import BioAuthProtocol
import Foundation
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

@Suite("DevicePublicKey: accepted encodings and canonical form")
struct DevicePublicKeyTests {
    static let p256SPKIPrefix = Data(hex: "3059301306072a8648ce3d020106082a8648ce3d030107034200")!
    static let ed25519SPKIPrefix = Data(hex: "302a300506032b6570032100")!

    /// The TEST-ONLY P-256 scalar of the vectors, so that the derived bytes below are fixed.
    static func fixedP256() throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(rawRepresentation: Data(hex: "c1c9b36f93e6c517ebb6319637b8bc2596b1dec4fdbd24aee6c09f7defb86cc5")!)
    }

    static func fixedEd25519() throws -> Curve25519.Signing.PrivateKey {
        try Curve25519.Signing.PrivateKey(rawRepresentation: Data(hex: "9076652cfdf5494eb4a1f6e455e4f18d56b5638684826cfa8695dd8b0e506d51")!)
    }

    // MARK: ES256

    @Test("P-256: X9.63 and SPKI of the same key give equal canonicalBytes; SPKI round-trips")
    func p256Forms() throws {
        for privateKey in [try Self.fixedP256()] + (0..<16).map({ _ in P256.Signing.PrivateKey() }) {
            let x963 = privateKey.publicKey.x963Representation
            let spki = privateKey.publicKey.derRepresentation
            #expect(spki == Self.p256SPKIPrefix + x963)

            let fromX963 = try DevicePublicKey(algorithm: .es256, bytes: x963)
            let fromSPKI = try DevicePublicKey(algorithm: .es256, bytes: spki)
            #expect(fromX963.canonicalBytes == x963)
            #expect(fromSPKI.canonicalBytes == x963)
            #expect(fromX963 == fromSPKI)
            #expect(fromX963.hashValue == fromSPKI.hashValue)
            #expect(fromX963.algorithm == .es256)

            #expect(fromX963.subjectPublicKeyInfo == spki)
            #expect(try DevicePublicKey(algorithm: .es256, bytes: fromX963.subjectPublicKeyInfo) == fromX963)
            #expect(try DevicePublicKey(algorithm: .es256, canonicalBytes: fromSPKI.canonicalBytes) == fromSPKI)
            // swift-crypto reads our SPKI back as the same key.
            #expect(try P256.Signing.PublicKey(derRepresentation: fromX963.subjectPublicKeyInfo).x963Representation == x963)
        }
    }

    @Test("P-256: input that is a Data slice (non-zero startIndex) parses")
    func p256Slice() throws {
        let x963 = try Self.fixedP256().publicKey.x963Representation
        let spki = try Self.fixedP256().publicKey.derRepresentation
        for bytes in [x963, spki] {
            let padded = Data([0xEE, 0xEE, 0xEE]) + bytes
            let slice = padded.dropFirst(3)
            #expect(slice.startIndex == 3)
            let key = try DevicePublicKey(algorithm: .es256, bytes: slice)
            #expect(key.canonicalBytes == x963)
            #expect(key.canonicalBytes.startIndex == 0)
        }
    }

    @Test("P-256: a point not on the curve is invalidKey (raw and inside SPKI)")
    func p256OffCurve() throws {
        var x963 = try Self.fixedP256().publicKey.x963Representation
        x963[64] ^= 0x01  // Y ± 1
        #expect(throws: DevicePublicKey.ParseError.invalidKey) { try DevicePublicKey(algorithm: .es256, bytes: x963) }
        #expect(throws: DevicePublicKey.ParseError.invalidKey) {
            try DevicePublicKey(algorithm: .es256, bytes: Self.p256SPKIPrefix + x963)
        }
    }

    @Test(
        "P-256: well-shaped 65-byte points that are not valid keys are invalidKey",
        arguments: [
            ("all-zero (the point at infinity is not a key)", Data([0x04] + [UInt8](repeating: 0, count: 64))),
            ("coordinates >= p", Data([0x04] + [UInt8](repeating: 0xFF, count: 64))),
        ]
    )
    func p256InvalidPoints(_ label: String, bytes: Data) {
        #expect(throws: DevicePublicKey.ParseError.invalidKey, "\(label)") {
            try DevicePublicKey(algorithm: .es256, bytes: bytes)
        }
    }

    @Test("P-256: a compressed point (33 bytes, 02/03 || X) is unrecognisedEncoding")
    func p256Compressed() throws {
        let compressed = try Self.fixedP256().publicKey.compressedRepresentation
        #expect(compressed.count == 33)
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: compressed)
        }
        // Also wrapped in an SPKI (a 58-byte BIT STRING form we never accept).
        let wrapped =
            Data([
                0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00,
            ]) + compressed
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: wrapped)
        }
    }

    @Test(
        "P-256: 65 bytes with another leading byte (compressed/hybrid tag) are rejected",
        arguments: [0x00, 0x02, 0x03, 0x05, 0x06, 0x07] as [UInt8]
    )
    func p256WrongPrefix(_ prefix: UInt8) throws {
        var bytes = try Self.fixedP256().publicKey.x963Representation
        bytes[0] = prefix
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: bytes)
        }
    }

    @Test("P-256: wrong lengths are unrecognisedEncoding", arguments: [0, 1, 32, 33, 64, 66, 90, 92, 130])
    func p256WrongLength(_ length: Int) throws {
        let x963 = try Self.fixedP256().publicKey.x963Representation
        let spki = Self.p256SPKIPrefix + x963
        // Truncate or extend a real key, keeping its prefix where there is room.
        let source = length > 65 ? spki + Data(count: max(0, length - 91)) : x963
        let bytes = Data(source.prefix(length))
        #expect(bytes.count == length)
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: bytes)
        }
    }

    @Test("P-256: X || Y without the 04 prefix is unrecognisedEncoding")
    func p256MissingPrefix() throws {
        let x963 = try Self.fixedP256().publicKey.x963Representation
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: x963.dropFirst())
        }
    }

    @Test("P-256: an SPKI with a trailing byte, a changed OID or another curve is unrecognisedEncoding")
    func p256SPKIVariants() throws {
        let spki = try Self.fixedP256().publicKey.derRepresentation
        var variants: [(String, Data)] = [("trailing 00", spki + [0x00])]
        var otherCurve = spki
        otherCurve[22] = 0x08  // 1.2.840.10045.3.1.7 -> .3.1.8
        variants.append(("other curve OID", otherCurve))
        var otherAlgorithm = spki
        otherAlgorithm[12] = 0x02  // id-ecPublicKey 2.1 -> 2.2
        variants.append(("other algorithm OID", otherAlgorithm))
        let longForm = Data([0x30, 0x81, 0x59]) + spki.dropFirst(2)
        variants.append(("long-form outer length", longForm))
        for (label, bytes) in variants {
            #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding, "\(label)") {
                try DevicePublicKey(algorithm: .es256, bytes: bytes)
            }
        }
    }

    @Test("P-256: an Ed25519 SPKI submitted as ES256 is unrecognisedEncoding")
    func ed25519SPKIAsES256() throws {
        let spki = try Self.ed25519SPKIPrefix + Self.fixedEd25519().publicKey.rawRepresentation
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .es256, bytes: spki)
        }
    }

    // MARK: Ed25519

    @Test("Ed25519: raw and SPKI of the same key give equal canonicalBytes; SPKI round-trips")
    func ed25519Forms() throws {
        for privateKey in [try Self.fixedEd25519()] + (0..<16).map({ _ in Curve25519.Signing.PrivateKey() }) {
            let raw = privateKey.publicKey.rawRepresentation
            let spki = Self.ed25519SPKIPrefix + raw
            let fromRaw = try DevicePublicKey(algorithm: .ed25519, bytes: raw)
            let fromSPKI = try DevicePublicKey(algorithm: .ed25519, bytes: spki)
            #expect(fromRaw.canonicalBytes == raw)
            #expect(fromSPKI.canonicalBytes == raw)
            #expect(fromRaw == fromSPKI)
            #expect(fromRaw.algorithm == .ed25519)
            #expect(fromRaw.subjectPublicKeyInfo == spki)
            #expect(fromRaw.subjectPublicKeyInfo.count == 44)
            #expect(try DevicePublicKey(algorithm: .ed25519, bytes: fromRaw.subjectPublicKeyInfo) == fromRaw)
            #expect(try DevicePublicKey(algorithm: .ed25519, canonicalBytes: fromSPKI.canonicalBytes) == fromSPKI)
        }
    }

    @Test("Ed25519: the documented vector key's SPKI, byte for byte")
    func ed25519DocumentedSPKI() throws {
        let raw = try Self.fixedEd25519().publicKey.rawRepresentation
        #expect(raw.hex == "0d578e1b005bfc0ac83ca19e51d9e6e63363eb3018ff223e79b6bc2bb37ba2b8")
        let key = try DevicePublicKey(algorithm: .ed25519, bytes: raw)
        #expect(key.subjectPublicKeyInfo == Data(referenceBase64URL: "MCowBQYDK2VwAyEADVeOGwBb_ArIPKGeUdnm5jNj6zAY_yI-eba8K7N7org"))
    }

    @Test("Ed25519: wrong lengths are unrecognisedEncoding", arguments: [0, 1, 31, 33, 43, 45, 64, 65])
    func ed25519WrongLength(_ length: Int) throws {
        let raw = try Self.fixedEd25519().publicKey.rawRepresentation
        let source = length > 32 ? Self.ed25519SPKIPrefix + raw + Data(count: 64) : raw
        let bytes = Data(source.prefix(length))
        #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
            try DevicePublicKey(algorithm: .ed25519, bytes: bytes)
        }
    }

    @Test("Ed25519: a P-256 SPKI or X9.63 point submitted as Ed25519 is unrecognisedEncoding")
    func es256KeyAsEd25519() throws {
        let p256 = try Self.fixedP256().publicKey
        for bytes in [p256.derRepresentation, p256.x963Representation] {
            #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
                try DevicePublicKey(algorithm: .ed25519, bytes: bytes)
            }
        }
    }

    @Test("Ed25519: an SPKI with a trailing byte or another OID (X25519) is unrecognisedEncoding")
    func ed25519SPKIVariants() throws {
        let spki = try Self.ed25519SPKIPrefix + Self.fixedEd25519().publicKey.rawRepresentation
        var x25519 = spki
        x25519[8] = 0x6E  // 1.3.101.112 -> 1.3.101.110 (X25519)
        for bytes in [spki + [0x00], x25519] {
            #expect(throws: DevicePublicKey.ParseError.unrecognisedEncoding) {
                try DevicePublicKey(algorithm: .ed25519, bytes: bytes)
            }
        }
    }

    @Test("Keys of different algorithms are never equal")
    func algorithmsDiffer() throws {
        let p256 = try DevicePublicKey(algorithm: .es256, bytes: Self.fixedP256().publicKey.x963Representation)
        let ed = try DevicePublicKey(algorithm: .ed25519, bytes: Self.fixedEd25519().publicKey.rawRepresentation)
        #expect(p256 != ed)
    }

    @Test("Ed25519: 32 bytes that do not decode to a curve point never verify a signature")
    func ed25519NotOnCurve() throws {
        // y = 2: (y² − 1)/(d·y² + 1) is not a square mod p, so no x exists. RFC 8032 §5.1.3 decoding fails.
        // The parser does not do field arithmetic (documented in Ed25519KeyCheck); verification refuses it.
        let key = try DevicePublicKey(algorithm: .ed25519, bytes: Data([0x02] + [UInt8](repeating: 0, count: 31)))
        let signature = try DeviceSignature(algorithm: .ed25519, bytes: Self.fixedEd25519().signature(for: Data("m".utf8)))
        #expect(!key.isValidSignature(signature, for: Data("m".utf8)))
    }

    @Test(
        "Ed25519: every small-order and non-canonical encoding is invalidKey",
        arguments: [
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000080",
            "0100000000000000000000000000000000000000000000000000000000000000",
            "0100000000000000000000000000000000000000000000000000000000000080",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        ]
    )
    func ed25519SmallOrderOrNonCanonical(hex: String) {
        let bytes = Data(stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! })
        #expect(throws: DevicePublicKey.ParseError.invalidKey) {
            try DevicePublicKey(algorithm: .ed25519, bytes: bytes)
        }
    }

    @Test("Ed25519: the identity key, which would verify a forgery for every message, is refused")
    func ed25519SmallOrder() throws {
        let identity = Data([0x01] + [UInt8](repeating: 0, count: 31))
        // With A = identity, R = identity and S = 0 satisfy [S]B = R + [k]A for every message.
        let forged = try DeviceSignature(algorithm: .ed25519, bytes: identity + Data(count: 32))
        #expect(throws: DevicePublicKey.ParseError.invalidKey) {
            try DevicePublicKey(algorithm: .ed25519, bytes: identity)
        }
        // Were it accepted, this forgery would verify for every message: that is why it is refused.
        #expect(forged.algorithm == .ed25519)
    }
}
