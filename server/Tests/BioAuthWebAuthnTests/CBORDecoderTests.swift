import BioAuthTesting
import Testing

@testable import BioAuthWebAuthn

/// The strict CBOR decoder accepts RFC 8949's examples of the WebAuthn subset and refuses every
/// form outside it, each with its reason and offset.
@Suite("CBOR: the strict subset WebAuthn uses")
struct CBORDecoderTests {
    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// RFC 8949 Appendix A, the examples inside the subset.
    static let appendixA: [(String, CBORValue)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(.max)),
        ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)), ("3903e7", .negative(999)), ("3bffffffffffffffff", .negative(.max)),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62c3bc", .text("\u{fc}")), ("63e6b0b4", .text("\u{6c34}")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([])), ("a201020304", .map([.init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .unsigned(4))])),
        ("a26161016162820203", .map([.init(.text("a"), .unsigned(1)), .init(.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
    ]

    @Test("RFC 8949's examples of the subset decode to their values and encode back to the same bytes")
    func appendixAExamples() throws {
        for (hex, value) in Self.appendixA {
            #expect(try CBORDecoder().decode(Self.bytes(hex)) == value, "\(hex)")
            #expect(CBOREncoder.encode(value) == Self.bytes(hex), "\(hex)")
        }
    }

    /// Inputs outside the subset, the reason each is refused, and where.
    static let refused: [(String, CBORError.Reason, Int)] = [
        ("5f42010243030405ff", .indefiniteLength, 0), ("9f018202039f0405ffff", .indefiniteLength, 0), ("bf6161016162f5ff", .indefiniteLength, 0),
        ("1817", .notShortestForm, 0), ("190017", .notShortestForm, 0), ("1900ff", .notShortestForm, 0), ("1a0000ffff", .notShortestForm, 0),
        ("1b00000000ffffffff", .notShortestForm, 0), ("380a", .notShortestForm, 0), ("580100", .notShortestForm, 0), ("83018202", .truncated, 2),
        ("f93c00", .unsupportedType, 0), ("fb3ff199999999999a", .unsupportedType, 0),
        ("c074323031332d30332d32315432303a30343a30305a", .unsupportedType, 0),
        ("f7", .unsupportedType, 0), ("f0", .unsupportedType, 0), ("f818", .unsupportedType, 0),
        ("1c", .reservedAdditionalInformation, 0), ("5d", .reservedAdditionalInformation, 0),
        ("a201020103", .duplicateKey, 3), ("a2616101616102", .duplicateKey, 4),
        ("62c328", .invalidUTF8, 0), ("61ff", .invalidUTF8, 0),
        ("1a00", .truncated, 2), ("44010203", .truncated, 0), ("", .truncated, 0), ("8a01", .truncated, 0),
        ("9b0000000100000000", .tooLarge, 0),
        ("0000", .trailingBytes, 1), ("8000", .trailingBytes, 1),
    ]

    @Test("everything outside the subset is refused with its reason and offset")
    func refusals() {
        for (hex, reason, offset) in Self.refused {
            #expect(throws: CBORError(reason, at: offset), "\(hex)") { try CBORDecoder().decode(Self.bytes(hex)) }
        }
    }

    @Test("depth, size and element limits hold")
    func limits() {
        let deep = [UInt8](repeating: 0x81, count: 17) + [0x00]
        #expect(throws: CBORError(.tooDeep, at: 17)) { try CBORDecoder().decode(deep) }
        #expect((try? CBORDecoder().decode(Array(deep.dropFirst()))) != nil, "16 levels are allowed")
        var small = CBORDecoder()
        small.maxBytes = 4
        #expect(throws: CBORError(.tooLarge, at: 0)) { try small.decode(Self.bytes("4401020304")) }
        small = CBORDecoder()
        small.maxElements = 2
        #expect(throws: CBORError(.tooLarge, at: 0)) { try small.decode(Self.bytes("83010203")) }
    }

    @Test("decodePrefix reads one item and says where it ends, as authenticator data needs")
    func prefix() throws {
        let (value, end) = try CBORDecoder().decodePrefix(Self.bytes("a10102ff00"))
        #expect(value == .map([.init(.unsigned(1), .unsigned(2))]))
        #expect(end == 3)
    }

    @Test("a COSE EC2 key decodes with its integer labels")
    func coseKey() throws {
        let x = [UInt8](repeating: 0x11, count: 32)
        let y = [UInt8](repeating: 0x22, count: 32)
        let bytes = Self.bytes("a5010203262001215820") + x + Self.bytes("225820") + y
        let key = try CBORDecoder().decode(bytes)
        #expect(key[1]?.integer == 2)
        #expect(key[3]?.integer == -7)
        #expect(key[-1]?.integer == 1)
        #expect(key[-2] == .bytes(x))
        #expect(key[-3] == .bytes(y))
        #expect(CBOREncoder.encode(key) == bytes, "an authenticator's canonical key re-encodes to itself")
    }
}
