import BioAuthProtocol
import Foundation
import Testing

@Suite("Base64URL: strict unpadded base64url")
struct Base64URLTests {
    @Test("Random bytes round-trip and match the reference encoding", arguments: 0...70)
    func roundTrip(length: Int) throws {
        for _ in 0..<8 {
            let bytes = randomBytes(length)
            let text = Base64URL.encode(bytes)
            #expect(text == Data(bytes).referenceBase64URL)
            #expect(text.utf8.count == (length * 4 + 2) / 3)
            #expect(!text.contains("="))
            #expect(Base64URL.decode(text) == Data(bytes))
            #expect(Base64URLBytes(base64URL: text)?.data == Data(bytes))
            #expect(Base64URLBytes(bytes).base64URL == text)
        }
    }

    @Test(
        "RFC 4648 §10 vectors, url-safe and unpadded",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
            ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ]
    )
    func rfc4648(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    @Test("The URL-safe alphabet is used: - and _ for 62 and 63")
    func urlSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == Data([0xFB, 0xFF, 0xBF]))
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        // Every alphabet character decodes in every position of a 4-character group.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for (index, character) in alphabet.enumerated() {
            let text = "\(character)AAA"
            #expect(Base64URL.decode(text) == Data([UInt8(index << 2), 0, 0]))
        }
    }

    @Test(
        "Non-canonical text is rejected",
        arguments: [
            "Zg==", "Zg=", "Zm8=", "Zm9vYg==", "=", "====", "Zm9v====",  // padding
            "+_8", "-/8", "+/8=", "Zm+v", "Zm/v",  // standard-alphabet characters
            " Zg", "Zg ", "Zm9v Yg", "Zm9v\nYg", "Zm9v\r\n", "\tZg",  // white space
            "Z", "AAAAA", "Zm9vY", "Zm9vYmFyZ",  // length % 4 == 1
            "Zh", "Zm9", "Zm9vYh", "AB", "AAB",  // non-zero unused trailing bits
            "Zm\u{E9}8", "Zg\u{0}", "\u{FF3A}g", "Zm9v\u{200B}", "ZgAA\u{1F600}",  // non-ASCII / NUL
            "Zm.v", "Zm9v!", "Zm9v%3D",  // other punctuation
        ]
    )
    func rejects(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
        #expect(Base64URLBytes(base64URL: text) == nil)
    }

    @Test("Trailing bits: exactly one text per byte string")
    func trailingBits() {
        // "f" = 0x66 = 011001 10|0000: only "Zg" has zero unused bits.
        #expect(Base64URL.decode("Zg") == Data("f".utf8))
        for last in "hijklmnopqrstuv" {  // 33...47: some of the low 4 bits set ("Zw" is "g", not "f")
            #expect(Base64URL.decode("Z\(last)") == nil, "Z\(last)")
        }
        // Two bytes leave 2 unused bits: "Zm8" is canonical, "Zm9", "Zm-", "Zm_" are not.
        #expect(Base64URL.decode("Zm8") == Data("fo".utf8))
        for last in ["9", "-", "_"] {
            #expect(Base64URL.decode("Zm\(last)") == nil)
        }
        // Exhaustively: every 2- and 3-character text either fails or re-encodes to itself.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for a in alphabet {
            for b in alphabet {
                let two = String([a, b])
                if let decoded = Base64URL.decode(two) { #expect(Base64URL.encode(decoded) == two) }
                let three = String([a, b, "A"])
                if let decoded = Base64URL.decode(three) { #expect(Base64URL.encode(decoded) == three) }
            }
        }
    }

    struct Wrapper: Codable, Equatable {
        var value: Base64URLBytes
    }

    @Test("Base64URLBytes JSON round trip")
    func jsonRoundTrip() throws {
        let value = Wrapper(value: Base64URLBytes([0xFB, 0xFF, 0xBF, 0x00]))
        let json = try JSONEncoder().encode(value)
        #expect(String(decoding: json, as: UTF8.self) == #"{"value":"-_-_AA"}"#)
        #expect(try JSONDecoder().decode(Wrapper.self, from: json) == value)
        #expect(value.value.description == "-_-_AA")
    }

    @Test(
        "Base64URLBytes JSON decoding fails with DecodingError for non-canonical text",
        arguments: [
            "Zg==", "+/8", "Zm9v Yg", "Z", "Zh", "Zm\\u00e98",
        ]
    )
    func jsonRejects(_ text: String) {
        let json = Data(#"{"value":"\#(text)"}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wrapper.self, from: json)
        }
        if let error, case .dataCorrupted = error {
        } else {
            Issue.record("expected DecodingError.dataCorrupted, got \(String(describing: error))")
        }
    }

    @Test("Base64URLBytes JSON decoding fails with DecodingError for a non-string")
    func jsonRejectsNonString() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wrapper.self, from: Data(#"{"value":42}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wrapper.self, from: Data(#"{"value":null}"#.utf8))
        }
    }
}
