import BioAuthProtocol
import Foundation
import Testing

@Suite("SignedMessage: the bytes a device key signs")
struct SignedMessageTests {
    static let tagBytes: [UInt8] = [0x42, 0x49, 0x4F, 0x41, 0x55, 0x54, 0x48, 0x2D, 0x56, 0x31, 0x00]  // "BIOAUTH-V1" NUL

    @Test("The tag is ASCII BIOAUTH-V1 followed by NUL (11 bytes)")
    func tag() {
        #expect(SignedMessage.tag == Self.tagBytes)
        #expect(SignedMessage.tag.count == 11)
    }

    @Test("Exact layout of a hand-built registration message")
    func exactLayout() throws {
        let message = SignedMessage(
            ceremony: .registration,
            relyingPartyID: "ab",
            registrationID: "reg_1",
            challenge: Data([0xAA, 0xBB, 0xCC])
        )
        let expected: [UInt8] =
            Self.tagBytes
            + [0x01]
            + [0x00, 0x02] + Array("ab".utf8)
            + [0x00, 0x05] + Array("reg_1".utf8)
            + [0x00, 0x03, 0xAA, 0xBB, 0xCC]
        #expect(try [UInt8](message.encoded()) == expected)
    }

    @Test("Ceremony byte at offset 11", arguments: [(Ceremony.registration, UInt8(0x01)), (.authentication, 0x02)])
    func ceremonyByte(ceremony: Ceremony, byte: UInt8) throws {
        #expect(ceremony.rawValue == byte)
        let bytes = try SignedMessage(ceremony: ceremony, relyingPartyID: "", registrationID: "", challenge: Data()).encoded()
        #expect([UInt8](bytes) == Self.tagBytes + [byte, 0, 0, 0, 0, 0, 0])
    }

    @Test("Lengths are big-endian u16 (a 258-byte challenge gets 01 02)")
    func bigEndianLengths() throws {
        let challenge = Data(randomBytes(258))
        let rpID = String(repeating: "r", count: 0x0123)
        let bytes = [UInt8](
            try SignedMessage(
                ceremony: .authentication,
                relyingPartyID: rpID,
                registrationID: "x",
                challenge: challenge
            ).encoded()
        )
        #expect(bytes[12] == 0x01 && bytes[13] == 0x23)
        let regOffset = 14 + 0x0123
        #expect(bytes[regOffset] == 0x00 && bytes[regOffset + 1] == 0x01 && bytes[regOffset + 2] == UInt8(ascii: "x"))
        let challengeOffset = regOffset + 3
        #expect(bytes[challengeOffset] == 0x01 && bytes[challengeOffset + 1] == 0x02)
        #expect(Data(bytes[(challengeOffset + 2)...]) == challenge)
        #expect(bytes.count == 11 + 1 + 2 + 0x0123 + 2 + 1 + 2 + 258)
    }

    @Test("The documented first vector's message, byte for byte")
    func documentedMessage() throws {
        let bytes = try SignedMessage(
            ceremony: .registration,
            relyingPartyID: "bank.example",
            registrationID: "reg_0123456789abcdef0123456789abcdef",
            challenge: Data(0..<32)
        ).encoded()
        #expect(
            bytes.hex
                == "42494f415554482d56310001000c62616e6b2e6578616d706c6500247265675f30313233343536373839616263646566303132333435363738396162636465660020000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
        )
    }

    @Test("Lengths count UTF-8 bytes, not characters")
    func utf8Length() throws {
        let rpID = "b\u{E4}nk.example"  // "bänk.example": 12 characters, 13 UTF-8 bytes
        #expect(rpID.count == 12)
        let bytes = [UInt8](
            try SignedMessage(
                ceremony: .authentication,
                relyingPartyID: rpID,
                registrationID: "r",
                challenge: Data()
            ).encoded()
        )
        #expect(bytes[12] == 0x00 && bytes[13] == 13)
        #expect(Array(bytes[14..<27]) == Array(rpID.utf8))
        #expect(Array(bytes[14..<27]) == [0x62, 0xC3, 0xA4, 0x6E, 0x6B, 0x2E, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65])

        // A 4-byte scalar and a multi-scalar grapheme: 1 character, many bytes.
        let emoji = "\u{1F469}\u{200D}\u{1F4BB}"  // woman technologist: 1 Character, 11 UTF-8 bytes
        #expect(emoji.count == 1)
        let emojiBytes = [UInt8](
            try SignedMessage(
                ceremony: .authentication,
                relyingPartyID: emoji,
                registrationID: "",
                challenge: Data()
            ).encoded()
        )
        #expect(emojiBytes[12] == 0x00 && emojiBytes[13] == 11)
    }

    @Test("No Unicode normalisation: NFC and NFD rp ids give different bytes")
    func noNormalisation() throws {
        let nfc = "b\u{E4}nk.example"
        let nfd = "ba\u{308}nk.example"
        let a = try SignedMessage(ceremony: .registration, relyingPartyID: nfc, registrationID: "r", challenge: Data()).encoded()
        let b = try SignedMessage(ceremony: .registration, relyingPartyID: nfd, registrationID: "r", challenge: Data()).encoded()
        #expect(a != b)
        #expect(b[13] == 14)
    }

    @Test(
        "A field of 65,535 bytes is accepted; 65,536 throws FieldTooLong naming the field",
        arguments: ["rp_id", "registration_id", "challenge"]
    )
    func fieldTooLong(field: String) throws {
        func message(length: Int) -> SignedMessage {
            let text = String(repeating: "a", count: length)
            return SignedMessage(
                ceremony: .registration,
                relyingPartyID: field == "rp_id" ? text : "rp",
                registrationID: field == "registration_id" ? text : "reg",
                challenge: field == "challenge" ? Data(count: length) : Data(count: 32)
            )
        }
        let longest = try message(length: 65_535).encoded()
        #expect(longest.contains(0xFF))
        let error = #expect(throws: SignedMessage.FieldTooLong.self) {
            try message(length: 65_536).encoded()
        }
        #expect(error?.field == field)
    }

    @Test("A multi-byte rp id over 65,535 bytes (but fewer characters) throws")
    func fieldTooLongInBytes() {
        let rpID = String(repeating: "\u{E4}", count: 32_768)  // 32,768 characters, 65,536 bytes
        let error = #expect(throws: SignedMessage.FieldTooLong.self) {
            try SignedMessage(ceremony: .registration, relyingPartyID: rpID, registrationID: "r", challenge: Data()).encoded()
        }
        #expect(error?.field == "rp_id")
    }

    @Test(
        "Injective: moving bytes between neighbouring fields changes the message",
        arguments: [
            // (rp_id, registration_id, challenge) pairs whose plain concatenations are equal
            (("ab", "c", [UInt8]()), ("a", "bc", [UInt8]())),
            (("", "abc", [UInt8]()), ("abc", "", [UInt8]())),
            (("rp", "reg_1", [0x01]), ("rp", "reg_", Array("1".utf8) + [0x01])),
            (("rp", "", [0x72, 0x65]), ("rp", "re", [UInt8]())),
            (("a\u{0}\u{1}b", "", [UInt8]()), ("a", "b", [UInt8]())),  // a field that imitates a length prefix
        ]
    )
    func injective(first: (String, String, [UInt8]), second: (String, String, [UInt8])) throws {
        let a = try SignedMessage(
            ceremony: .authentication,
            relyingPartyID: first.0,
            registrationID: first.1,
            challenge: Data(first.2)
        ).encoded()
        let b = try SignedMessage(
            ceremony: .authentication,
            relyingPartyID: second.0,
            registrationID: second.1,
            challenge: Data(second.2)
        ).encoded()
        #expect(a != b)
    }

    @Test("Injective: the ceremony alone changes the message (only byte 11)")
    func ceremonyDiffers() throws {
        let challenge = Data(randomBytes(32))
        let registration = try SignedMessage(
            ceremony: .registration,
            relyingPartyID: "bank.example",
            registrationID: "reg_x",
            challenge: challenge
        ).encoded()
        let authentication = try SignedMessage(
            ceremony: .authentication,
            relyingPartyID: "bank.example",
            registrationID: "reg_x",
            challenge: challenge
        ).encoded()
        #expect(registration != authentication)
        #expect(registration.count == authentication.count)
        let differing = zip(registration, authentication).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing == [11])
    }

    @Test("A 32-byte challenge gets the length prefix 00 20")
    func challengeLength() throws {
        let bytes = try SignedMessage(ceremony: .registration, relyingPartyID: "", registrationID: "", challenge: Data(count: 32)).encoded()
        #expect([UInt8](bytes[16..<18]) == [0x00, 0x20])
        #expect(bytes.count == 18 + 32)
    }
}
