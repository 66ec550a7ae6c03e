import Foundation
import Testing

@testable import BioAuthProtocol

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

@Suite("DeviceSignature: strict DER for ES256, 64 bytes for Ed25519")
struct DeviceSignatureTests {
    /// The P-256 group order n.
    static let order = [UInt8](Data(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!)
    static let message = Data("BIOAUTH-V1 test message".utf8)

    /// `SEQUENCE { INTEGER r, INTEGER s }` from raw INTEGER contents, no validity checks.
    static func der(r: [UInt8], s: [UInt8]) -> Data {
        let body = [0x02, UInt8(r.count)] + r + [0x02, UInt8(s.count)] + s
        return Data([0x30, UInt8(body.count)] + body)
    }

    static func parses(_ bytes: Data, as algorithm: SignatureAlgorithm = .es256) -> Bool {
        (try? DeviceSignature(algorithm: algorithm, bytes: bytes)) != nil
    }

    // MARK: ES256 accepted

    @Test("A fresh swift-crypto P-256 signature (derRepresentation) parses and verifies")
    func freshSignatureVerifies() throws {
        for _ in 0..<32 {
            let privateKey = P256.Signing.PrivateKey()
            let key = try DevicePublicKey(algorithm: .es256, bytes: privateKey.publicKey.x963Representation)
            let ecdsa = try privateKey.signature(for: Self.message)
            let signature = try DeviceSignature(algorithm: .es256, bytes: ecdsa.derRepresentation)
            #expect(signature.algorithm == .es256)
            #expect(signature.value == .es256(ecdsa.rawRepresentation))
            #expect(key.isValidSignature(signature, for: Self.message))
            #expect(!key.isValidSignature(signature, for: Self.message + [0]))
            // Our encoder agrees byte for byte with swift-crypto's DER.
            #expect(DeviceSignature.derEncoding(ofRawES256: ecdsa.rawRepresentation) == ecdsa.derRepresentation)
        }
    }

    @Test("The high-S twin (r, n - s) is accepted and verifies: no low-S rule")
    func highS() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try DevicePublicKey(algorithm: .es256, bytes: privateKey.publicKey.x963Representation)
        let raw = [UInt8](try privateKey.signature(for: Self.message).rawRepresentation)
        let twin = Array(raw[0..<32]) + Self.subtract(Self.order, Array(raw[32..<64]))
        let signature = try DeviceSignature(algorithm: .es256, bytes: DeviceSignature.derEncoding(ofRawES256: Data(twin)))
        #expect(key.isValidSignature(signature, for: Self.message))
    }

    /// a - b for 32-byte big-endian numbers with a >= b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var difference = Int(a[index]) - Int(b[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }

    static let one = [UInt8](repeating: 0, count: 31) + [1]
    static let highBit = [0x80] + [UInt8](repeating: 0, count: 31)
    static let orderMinusOne = subtract(order, one)

    @Test(
        "derEncoding(ofRawES256:) gives minimal INTEGERs and round-trips through the parser",
        arguments: DeviceSignatureTests.shapes()
    )
    func derEncodingShapes(_ shape: Shape) throws {
        let (r, s, rLength, sLength) = (shape.r, shape.s, shape.rLength, shape.sLength)
        let der = [UInt8](DeviceSignature.derEncoding(ofRawES256: Data(r + s)))
        #expect(der.count == 2 + 2 + rLength + 2 + sLength)
        #expect(der[0] == 0x30 && Int(der[1]) == der.count - 2)
        #expect(der[2] == 0x02 && Int(der[3]) == rLength)
        #expect(der[4 + rLength] == 0x02 && Int(der[5 + rLength]) == sLength)
        let signature = try DeviceSignature(algorithm: .es256, bytes: Data(der))
        #expect(signature.value == .es256(Data(r + s)))
    }

    /// (r, s, expected DER content length of r, of s), built to hit every padding/stripping branch.
    struct Shape: Sendable, CustomTestStringConvertible {
        var r: [UInt8], s: [UInt8], rLength: Int, sLength: Int
        var testDescription: String { "r=\(Data(r).hex) s=\(Data(s).hex)" }
    }

    static func shapes() -> [Shape] {
        let one = Self.one
        let highBit = Self.highBit
        let orderMinusOne = Self.orderMinusOne
        let tuples: [([UInt8], [UInt8], Int, Int)] = [
            (one, one, 1, 1),
            (highBit, one, 33, 1),  // r needs a 0x00 pad
            (one, highBit, 1, 33),
            ([0, 0] + [0x01] + [UInt8](repeating: 0xAB, count: 29), one, 30, 1),  // leading zero bytes stripped
            ([0] + [0x80] + [UInt8](repeating: 0x11, count: 30), orderMinusOne, 32, 33),  // strip, then pad again
            ([0] + [0x7F] + [UInt8](repeating: 0xFF, count: 30), [UInt8](repeating: 0x7F, count: 32), 31, 32),
            (orderMinusOne, orderMinusOne, 33, 33),  // the largest: 72 bytes
            ([UInt8](repeating: 0, count: 31) + [0x80], [UInt8](repeating: 0, count: 31) + [0x7F], 2, 1),
        ]
        return tuples.map { Shape(r: $0.0, s: $0.1, rLength: $0.2, sLength: $0.3) }
    }

    @Test("derEncoding(ofRawES256:) round-trips random keys' signatures and random scalars")
    func derEncodingRandom() throws {
        var highBitSeen = false
        var shortSeen = false
        for _ in 0..<200 {
            let raw = try P256.Signing.PrivateKey().signature(for: Self.message).rawRepresentation
            let der = DeviceSignature.derEncoding(ofRawES256: raw)
            if der[4] == 0x00 { highBitSeen = true }
            let signature = try DeviceSignature(algorithm: .es256, bytes: der)
            #expect(signature.value == .es256(raw))
        }
        // Random in-range scalars, forced to have leading zero bytes some of the time.
        for zeros in 0..<32 {
            var r = randomBytes(32)
            var s = randomBytes(32)
            r[0] &= 0x7F  // keep below n
            s[0] &= 0x7F
            for index in 0..<zeros { r[index] = 0 }
            for index in 0..<min(zeros, 31) { s[index] = 0 }
            if r.allSatisfy({ $0 == 0 }) { r[31] = 1 }
            if s.allSatisfy({ $0 == 0 }) { s[31] = 1 }
            let der = DeviceSignature.derEncoding(ofRawES256: Data(r + s))
            if der[3] < 32 { shortSeen = true }
            let signature = try DeviceSignature(algorithm: .es256, bytes: der)
            #expect(signature.value == .es256(Data(r + s)))
        }
        #expect(highBitSeen)
        #expect(shortSeen)
    }

    @Test("The extreme valid values r = s = 1 and r = s = n - 1 are accepted")
    func extremes() {
        #expect(Self.parses(Self.der(r: [0x01], s: [0x01])))
        #expect(Self.parses(Self.der(r: [0x00] + Self.orderMinusOne, s: [0x00] + Self.orderMinusOne)))
    }

    // MARK: ES256 rejected

    static let goodR: [UInt8] = [0x00, 0x80] + [UInt8](repeating: 0x22, count: 31)  // 33 bytes, needed pad
    static let goodS: [UInt8] = [0x7F] + [UInt8](repeating: 0x33, count: 31)  // 32 bytes
    static let good = [UInt8](der(r: goodR, s: goodS))

    @Test("The base signature for the mutations below is itself accepted")
    func baseAccepted() {
        #expect(Self.parses(Data(Self.good)))
    }

    /// Malformed ES256 signatures, each with a label.
    static func malformed() -> [(String, [UInt8])] {
        let good = Self.good
        let goodR = Self.goodR
        let goodS = Self.goodS
        let order = Self.order
        var cases: [(String, [UInt8])] = []
        func add(_ label: String, _ bytes: [UInt8]) { cases.append((label, bytes)) }

        add("long-form SEQUENCE length", [0x30, 0x81] + Array(good.dropFirst()))
        add("long-form INTEGER length", [0x30, 0x07, 0x02, 0x81, 0x01, 0x01, 0x02, 0x01, 0x01])
        add("indefinite SEQUENCE length", [0x30, 0x80] + Array(good.dropFirst(2)) + [0x00, 0x00])
        add("negative r", [UInt8](der(r: [0x80] + [UInt8](repeating: 1, count: 31), s: goodS)))
        add("negative s (one byte)", [UInt8](der(r: [0x01], s: [0xFF])))
        add("non-minimal r (00 before a byte < 80)", [UInt8](der(r: [0x00, 0x01], s: [0x01])))
        add("non-minimal r (00 00 before a byte >= 80)", [UInt8](der(r: [0x00] + goodR, s: goodS)))
        add("non-minimal s", [UInt8](der(r: goodR, s: [0x00] + goodS)))
        add("r = 0", [UInt8](der(r: [0x00], s: [0x01])))
        add("s = 0", [UInt8](der(r: [0x01], s: [0x00])))
        add("r = 0 written as 00 00", [UInt8](der(r: [0x00, 0x00], s: [0x01])))
        add("empty INTEGER", [0x30, 0x07, 0x02, 0x00, 0x02, 0x01, 0x01, 0x02, 0x01])
        add("r = n", [UInt8](der(r: [0x00] + order, s: [0x01])))
        add("s = n", [UInt8](der(r: goodR, s: [0x00] + order)))
        add("s = n + 1", [UInt8](der(r: goodR, s: [0x00] + Array(order.dropLast()) + [order[31] + 1])))
        add("s = 2^256 - 1", [UInt8](der(r: goodR, s: [0x00] + [UInt8](repeating: 0xFF, count: 32))))
        add("r of 33 bytes without a 00 pad", [UInt8](der(r: [0x01] + [UInt8](repeating: 0, count: 32), s: [0x01])))
        add("trailing byte", good + [0x00])
        add(
            "extra INTEGER inside the SEQUENCE",
            [0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]
        )
        add("wrong outer tag (SET)", [0x31] + Array(good.dropFirst()))
        add("SEQUENCE tag without the constructed bit (0x10)", [0x10] + Array(good.dropFirst()))
        add("wrong r tag (BIT STRING)", [0x30, good[1], 0x03] + Array(good.dropFirst(3)))
        var wrongSTag = good
        wrongSTag[4 + goodR.count] = 0x04
        add("wrong s tag (OCTET STRING)", wrongSTag)
        add("truncated by one byte", Array(good.dropLast()))
        add("truncated to the header", Array(good.prefix(2)))
        add("truncated mid-r", Array(good.prefix(10)))
        add("SEQUENCE length one too long", [0x30, good[1] + 1] + Array(good.dropFirst(2)))
        add("SEQUENCE length one too short", [0x30, good[1] - 1] + Array(good.dropFirst(2)))
        add("s INTEGER length runs past the end", [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x02, 0x01])
        add("missing s", [0x30, 0x03, 0x02, 0x01, 0x01])
        add("empty", [])
        add("single byte", [0x30])
        add("empty SEQUENCE", [0x30, 0x00])
        add("raw r||s (64 bytes)", Array(goodR.suffix(32)) + goodS)
        return cases
    }

    @Test("Malformed DER is rejected with EncodingError", arguments: DeviceSignatureTests.malformed())
    func rejected(_ label: String, bytes: [UInt8]) {
        #expect(throws: DeviceSignature.EncodingError.self, "\(label)") {
            try DeviceSignature(algorithm: .es256, bytes: Data(bytes))
        }
    }

    @Test("Every single-byte truncation and every appended byte of a valid signature is rejected")
    func truncationsAndExtensions() {
        for length in 0..<Self.good.count {
            #expect(!Self.parses(Data(Self.good.prefix(length))), "prefix \(length)")
        }
        for extra in [0x00, 0x01, 0x02, 0x30, 0xFF] as [UInt8] {
            #expect(!Self.parses(Data(Self.good + [extra])))
        }
    }

    @Test("A parser input that is a slice (non-zero startIndex) is handled")
    func sliceInput() throws {
        let padded = Data([0xEE, 0xEE] + Self.good)
        let slice = padded.dropFirst(2)
        #expect(slice.startIndex == 2)
        #expect(Self.parses(slice))
    }

    // MARK: Ed25519

    @Test("Ed25519 accepts exactly 64 bytes", arguments: [0, 1, 32, 63, 64, 65, 72, 128])
    func ed25519Length(length: Int) {
        #expect(Self.parses(Data(randomBytes(length)), as: .ed25519) == (length == 64))
    }

    @Test("A fresh Ed25519 signature parses and verifies")
    func ed25519Fresh() throws {
        let privateKey = Curve25519.Signing.PrivateKey()
        let key = try DevicePublicKey(algorithm: .ed25519, bytes: privateKey.publicKey.rawRepresentation)
        let raw = try privateKey.signature(for: Self.message)
        let signature = try DeviceSignature(algorithm: .ed25519, bytes: raw)
        #expect(signature.algorithm == .ed25519)
        #expect(key.isValidSignature(signature, for: Self.message))
        #expect(!key.isValidSignature(signature, for: Self.message.dropLast()))
    }

    // MARK: Cross-algorithm

    @Test("A signature parsed for one algorithm never verifies under a key of the other")
    func crossAlgorithm() throws {
        let p256 = P256.Signing.PrivateKey()
        let ed = Curve25519.Signing.PrivateKey()
        let p256Key = try DevicePublicKey(algorithm: .es256, bytes: p256.publicKey.x963Representation)
        let edKey = try DevicePublicKey(algorithm: .ed25519, bytes: ed.publicKey.rawRepresentation)

        let es256Signature = try DeviceSignature(algorithm: .es256, bytes: p256.signature(for: Self.message).derRepresentation)
        let edSignature = try DeviceSignature(algorithm: .ed25519, bytes: ed.signature(for: Self.message))
        #expect(p256Key.isValidSignature(es256Signature, for: Self.message))
        #expect(edKey.isValidSignature(edSignature, for: Self.message))
        #expect(!edKey.isValidSignature(es256Signature, for: Self.message))
        #expect(!p256Key.isValidSignature(edSignature, for: Self.message))

        // The same 64 bytes: a P-256 raw r||s parsed as "Ed25519" never verifies under the P-256 key...
        let raw = try p256.signature(for: Self.message).rawRepresentation
        let rawAsEd = try DeviceSignature(algorithm: .ed25519, bytes: raw)
        #expect(!p256Key.isValidSignature(rawAsEd, for: Self.message))
        // ...and an Ed25519 signature sent as ES256 is not even DER.
        #expect(throws: DeviceSignature.EncodingError.self) {
            try DeviceSignature(algorithm: .es256, bytes: ed.signature(for: Self.message))
        }
    }

    @Test("Equal bytes parsed for different algorithms are different signatures")
    func algorithmIsPartOfIdentity() throws {
        let bytes = Data(DeviceSignature.derEncoding(ofRawES256: Data(Self.one + Self.one)))
        let padded = bytes + Data(count: 64 - bytes.count)
        let asEd = try DeviceSignature(algorithm: .ed25519, bytes: padded)
        #expect(asEd.algorithm == .ed25519)
        #expect(throws: DeviceSignature.EncodingError.self) { try DeviceSignature(algorithm: .es256, bytes: padded) }
    }
}
