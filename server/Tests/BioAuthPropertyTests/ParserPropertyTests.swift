import BioAuthTesting
import Foundation
import PropertyBased
import Testing

@testable import BioAuthProtocol
@testable import BioAuthWebAuthn

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

// Every parser of untrusted bytes, checked on generated input: it never crashes, accepts only
// what it can give back unchanged, and round-trips what the honest side produces.

private let anyBytes = Gen.uint8().array(of: 0...200).map { Data($0) }
/// One of `values`, uniformly (shrinks towards the first).
private func pick<T: Sendable>(_ values: [T]) -> Generator<T, Shrink.Integer<Int>> {
    Gen.int(in: 0...(values.count - 1)).map { values[$0] }
}

private let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

@Suite("Base64url, property-based")
struct Base64URLProperties {
    @Test("encode then decode gives the bytes back, in the unpadded URL-safe alphabet")
    func roundTrip() async {
        await propertyCheck(count: 500, input: anyBytes) { bytes in
            let text = Base64URL.encode(bytes)
            #expect(text.utf8.allSatisfy { base64URLAlphabet.contains($0) })
            #expect(Base64URL.decode(text) == bytes)
        }
    }

    @Test("any text either fails to decode or is the one canonical encoding of what it decodes to")
    func decodeIsCanonical() async {
        // Mostly alphabet characters (so that many decode), with padding, space and others mixed in.
        let character = pick(base64URLAlphabet + Array("=+/ .\n\u{7F}".utf8) + [0xC3, 0xA9])
        await propertyCheck(count: 1_000, input: character.array(of: 0...80)) { characters in
            let text = String(decoding: characters, as: UTF8.self)
            if let bytes = Base64URL.decode(text) {
                #expect(Base64URL.encode(bytes) == text)
            }
        }
    }

    @Test("Base64URLBytes in JSON: decodes exactly the texts Base64URL accepts")
    func jsonField() async {
        let character = pick(base64URLAlphabet + Array("=+/".utf8))
        await propertyCheck(count: 300, input: character.array(of: 0...40)) { characters in
            let text = String(decoding: characters, as: UTF8.self)
            let json = Data("{\"signature\":\"\(text)\"}".utf8)
            let decoded = try? WireJSON.makeDecoder().decode(VerifyRegistrationRequest.self, from: json)
            #expect(decoded?.signature.data == Base64URL.decode(text))
        }
    }
}

@Suite("Public keys, property-based")
struct PublicKeyProperties {
    @Test("random bytes never crash the key parser, and whatever it accepts re-parses to the same key", arguments: SignatureAlgorithm.allCases)
    func randomBytes(algorithm: SignatureAlgorithm) async {
        let sized = pick([0, 1, 31, 32, 33, 44, 64, 65, 66, 91, 120]).map { count in count }
        await propertyCheck(count: 500, input: anyBytes, sized) { bytes, length in
            for candidate in [bytes, Data(bytes.prefix(length)), Data([0x04]) + bytes.prefix(64)] {
                if let key = try? DevicePublicKey(algorithm: algorithm, bytes: candidate) {
                    #expect((try? DevicePublicKey(algorithm: algorithm, canonicalBytes: key.canonicalBytes)) == key)
                    #expect((try? DevicePublicKey(algorithm: algorithm, bytes: key.subjectPublicKeyInfo)) == key)
                }
            }
        }
    }

    @Test("real ES256 keys parse from X9.63 and SubjectPublicKeyInfo to the same key; one flipped byte never gives it back")
    func es256Keys() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...90), Gen.uint8(in: 1...255)) { position, flip in
            let key = P256.Signing.PrivateKey().publicKey
            let x963 = try DevicePublicKey(algorithm: .es256, bytes: key.x963Representation)
            let spki = try DevicePublicKey(algorithm: .es256, bytes: key.derRepresentation)
            #expect(x963 == spki)
            #expect(x963.canonicalBytes == key.x963Representation)
            for encoding in [key.x963Representation, key.derRepresentation] where position < encoding.count {
                var tampered = encoding
                tampered[tampered.startIndex + position] ^= flip
                if let parsed = try? DevicePublicKey(algorithm: .es256, bytes: tampered) {
                    #expect(parsed != x963)
                }
            }
        }
    }

    @Test("real Ed25519 keys parse from raw and SubjectPublicKeyInfo to the same key; one flipped byte never gives it back")
    func ed25519Keys() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...43), Gen.uint8(in: 1...255)) { position, flip in
            let key = Curve25519.Signing.PrivateKey().publicKey
            let raw = try DevicePublicKey(algorithm: .ed25519, bytes: key.rawRepresentation)
            #expect((try? DevicePublicKey(algorithm: .ed25519, bytes: raw.subjectPublicKeyInfo)) == raw)
            for encoding in [key.rawRepresentation, raw.subjectPublicKeyInfo] where position < encoding.count {
                var tampered = encoding
                tampered[tampered.startIndex + position] ^= flip
                if let parsed = try? DevicePublicKey(algorithm: .ed25519, bytes: tampered) {
                    #expect(parsed != raw)
                }
            }
        }
    }
}

@Suite("Signatures, property-based")
struct SignatureProperties {
    @Test("random bytes never crash the DER parser; whatever it accepts is its own strict encoding")
    func randomDER() async {
        // Shapes near DER: a SEQUENCE header over random content, and plain random bytes.
        let nearDER = anyBytes.map { body in Data([0x30, UInt8(truncatingIfNeeded: body.count)]) + body }
        await propertyCheck(count: 1_000, input: anyBytes, nearDER) { random, sequence in
            for candidate in [random, sequence] {
                if let parsed = try? DeviceSignature(algorithm: .es256, bytes: candidate), case let raw = Self.raw(parsed) {
                    #expect(DeviceSignature.derEncoding(ofRawES256: raw) == candidate)
                }
            }
        }
    }

    @Test("raw r||s → strict DER → parse gives r||s back")
    func derRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 64)) { bytes in
            let raw = Data(bytes)
            let der = DeviceSignature.derEncoding(ofRawES256: raw)
            if let parsed = try? DeviceSignature(algorithm: .es256, bytes: der) {
                #expect(Self.raw(parsed) == raw)
            } else {
                // Only zero scalars are refused (DER cannot be strict about an INTEGER 0 signature value).
                #expect(raw.prefix(32).allSatisfy { $0 == 0 } || raw.suffix(32).allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("real ES256 signatures parse, verify, and are refused with any byte appended or removed")
    func realSignatures() async {
        await propertyCheck(count: 60, input: anyBytes) { message in
            let key = P256.Signing.PrivateKey()
            let der = try key.signature(for: message).derRepresentation
            let parsed = try DeviceSignature(algorithm: .es256, bytes: der)
            let publicKey = try DevicePublicKey(algorithm: .es256, bytes: key.publicKey.x963Representation)
            #expect(publicKey.isValidSignature(parsed, for: message))
            #expect((try? DeviceSignature(algorithm: .es256, bytes: der + [0])) == nil)
            #expect((try? DeviceSignature(algorithm: .es256, bytes: der.dropLast())) == nil)
        }
    }

    @Test("Ed25519 signatures: exactly 64 bytes are accepted")
    func ed25519Length() async {
        await propertyCheck(count: 300, input: anyBytes) { bytes in
            #expect(((try? DeviceSignature(algorithm: .ed25519, bytes: bytes)) != nil) == (bytes.count == 64))
        }
    }

    /// The raw `r || s` an ES256 signature parsed to.
    static func raw(_ signature: DeviceSignature) -> Data {
        if case .es256(let raw) = signature.value { return raw }
        return Data()
    }
}

@Suite("JSON bodies, property-based")
struct JSONBodyProperties {
    private static let text = Gen<UnicodeScalar>.unicodeScalar(in: "\u{0}"..."\u{2FF}").array(of: 0...20).map { scalars in
        String(String.UnicodeScalarView(scalars))
    }

    @Test("random bytes never crash the body decoder, for every request type")
    func randomBodies() async {
        let structured = pick(Array(#"{}[]":,0123456789.eE+-truefalsnl \#\"abcuser_namepasswordpinsignature"#.utf8)).array(of: 0...60).map {
            Data($0)
        }
        await propertyCheck(count: 1_000, input: anyBytes, structured) { random, shaped in
            for body in [random, shaped] {
                let decoder = WireJSON.makeDecoder()
                _ = try? decoder.decode(CreateUserRequest.self, from: body)
                _ = try? decoder.decode(PasswordSignInRequest.self, from: body)
                _ = try? decoder.decode(PINSignInRequest.self, from: body)
                _ = try? decoder.decode(SetPINRequest.self, from: body)
                _ = try? decoder.decode(StartRegistrationRequest.self, from: body)
                _ = try? decoder.decode(VerifyRegistrationRequest.self, from: body)
                _ = try? decoder.decode(CreateChallengeRequest.self, from: body)
                _ = try? decoder.decode(BiometricSignInRequest.self, from: body)
            }
        }
    }

    @Test("every request body round-trips through the wire encoding")
    func roundTrip() async {
        let minutes = Gen.int(in: -10...50_000)
        await propertyCheck(count: 300, input: Self.text, Self.text, anyBytes, minutes) { first, second, bytes, minutes in
            let encoder = WireJSON.makeEncoder()
            let decoder = WireJSON.makeDecoder()
            let password = PasswordSignInRequest(username: first, password: second, sessionDurationMinutes: minutes)
            #expect((try? decoder.decode(PasswordSignInRequest.self, from: encoder.encode(password))) == password)
            let user = CreateUserRequest(username: first, password: second)
            #expect((try? decoder.decode(CreateUserRequest.self, from: encoder.encode(user))) == user)
            let start = StartRegistrationRequest(algorithm: .ed25519, publicKey: bytes, label: second)
            #expect((try? decoder.decode(StartRegistrationRequest.self, from: encoder.encode(start))) == start)
            let signIn = BiometricSignInRequest(challengeID: first, signature: bytes, sessionDurationMinutes: minutes)
            #expect((try? decoder.decode(BiometricSignInRequest.self, from: encoder.encode(signIn))) == signIn)
        }
    }
}

@Suite("Signed message, property-based")
struct SignedMessageProperties {
    private static let field = Gen<UnicodeScalar>.unicodeScalar(in: "\u{0}"..."\u{FF}").array(of: 0...12).map { scalars in
        String(String.UnicodeScalarView(scalars))
    }
    private static let ceremony = Gen<Ceremony>.case
    private static let challenge = Gen.uint8().array(of: 0...40).map { Data($0) }

    /// An independent decoder of the layout in docs/PROTOCOL.md §2.
    static func decode(_ bytes: Data) -> SignedMessage? {
        var rest = [UInt8](bytes)
        guard rest.starts(with: SignedMessage.tag) else { return nil }
        rest.removeFirst(SignedMessage.tag.count)
        guard let ceremonyByte = rest.first, let ceremony = Ceremony(rawValue: ceremonyByte) else { return nil }
        rest.removeFirst()
        var fields: [[UInt8]] = []
        for _ in 0..<3 {
            guard rest.count >= 2 else { return nil }
            let length = Int(rest[0]) << 8 | Int(rest[1])
            guard rest.count >= 2 + length else { return nil }
            fields.append(Array(rest[2..<(2 + length)]))
            rest.removeFirst(2 + length)
        }
        guard rest.isEmpty, let rp = String(validating: fields[0], as: UTF8.self),
            let registration = String(validating: fields[1], as: UTF8.self)
        else { return nil }
        return SignedMessage(ceremony: ceremony, relyingPartyID: rp, registrationID: registration, challenge: Data(fields[2]))
    }

    @Test("encoding round-trips: the bytes give back every field")
    func roundTrip() async {
        await propertyCheck(count: 1_000, input: Self.ceremony, Self.field, Self.field, Self.challenge) { ceremony, rp, registration, challenge in
            let message = SignedMessage(ceremony: ceremony, relyingPartyID: rp, registrationID: registration, challenge: challenge)
            #expect((try? message.encoded()).flatMap(Self.decode) == message)
        }
    }

    @Test("encoding is injective: different fields never give the same bytes")
    func injective() async {
        // Short fields from a tiny alphabet, so that shifted boundaries ("ab","c" vs "a","bc") occur often.
        let tiny = pick(["a", "b", "\u{0}"]).string(of: 0...3)
        let tinyChallenge = pick([0x00, 0x61, 0x62]).array(of: 0...3).map { Data($0) }
        let message = zip(Self.ceremony, tiny, tiny, tinyChallenge).map { ceremony, rp, registration, challenge in
            SignedMessage(ceremony: ceremony, relyingPartyID: rp, registrationID: registration, challenge: challenge)
        }
        await propertyCheck(count: 2_000, input: message, message) { first, second in
            if first != second {
                #expect((try? first.encoded()) != (try? second.encoded()))
            } else {
                #expect((try? first.encoded()) == (try? second.encoded()))
            }
        }
    }

    @Test("a field over 65,535 bytes is refused, never truncated")
    func tooLong() async {
        await propertyCheck(count: 20, input: Gen.int(in: 65_536...70_000)) { length in
            let message = SignedMessage(
                ceremony: .registration,
                relyingPartyID: "rp",
                registrationID: String(repeating: "r", count: length),
                challenge: Data()
            )
            #expect(throws: SignedMessage.FieldTooLong.self) { try message.encoded() }
        }
    }
}

@Suite("CBOR, property-based")
struct CBORProperties {
    /// A value of the subset built from a stream of random numbers (so it shrinks with them):
    /// each number picks a kind and its content, containers up to three levels deep.
    private static func value(_ seeds: inout ArraySlice<UInt64>, depth: Int = 3) -> CBORValue {
        guard let seed = seeds.popFirst() else { return .null }
        let content = seeds.popFirst() ?? 0
        switch seed % (depth > 0 ? 9 : 7) {
        case 0: return .unsigned(content)
        case 1: return .negative(content)
        case 2: return .bytes((0..<Int(content % 40)).map { UInt8(truncatingIfNeeded: content >> ($0 % 8 * 8)) })
        case 3: return .text(String(repeating: "é", count: Int(content % 5)) + String(content))
        case 4: return .bool(content % 2 == 0)
        case 5, 6: return .null
        case 7: return .array((0..<Int(content % 5)).map { _ in value(&seeds, depth: depth - 1) })
        default:
            let keys = Set((0..<Int(content % 5)).map { UInt64($0) &* 7_919 &+ content })
            return .map(keys.sorted().map { CBORValue.Entry(.unsigned($0), value(&seeds, depth: depth - 1)) })
        }
    }

    private static let values = Gen.uint64().array(of: 0...60).map { numbers -> CBORValue in
        var seeds = ArraySlice(numbers)
        return value(&seeds)
    }

    @Test("every value of the subset encodes canonically and decodes back to itself")
    func roundTrip() async {
        await propertyCheck(count: 500, input: Self.values) { value in
            let bytes = CBOREncoder.encode(value)
            #expect((try? CBORDecoder().decode(bytes)) == value)
        }
    }

    @Test("random bytes never crash the decoder; whatever it accepts is one item that re-encodes to an item that decodes equal")
    func randomBytes() async {
        await propertyCheck(count: 3_000, input: anyBytes) { data in
            if let value = try? CBORDecoder().decode(Array(data)) {
                #expect((try? CBORDecoder().decode(CBOREncoder.encode(value))) == value)
            }
        }
    }

    @Test("a shortest-form integer re-encoded one size wider is refused")
    func widerIntegersAreRefused() async {
        await propertyCheck(count: 500, input: Gen.uint64(in: 0...0xFFFF_FFFF)) { n in
            let canonical = CBOREncoder.encode(.unsigned(n))
            let wider: [UInt8] =
                switch canonical.count {
                case 1: [0x18, UInt8(n)]
                case 2: [0x19, 0x00, UInt8(n)]
                case 3: [0x1A, 0x00, 0x00] + canonical.dropFirst()
                default: [0x1B, 0, 0, 0, 0] + canonical.dropFirst()
                }
            #expect(throws: CBORError.self) { try CBORDecoder().decode(wider) }
        }
    }
}

@Suite("Passkey responses, property-based")
struct PasskeyResponseProperties {
    /// Honest authenticator data of a registration: the hash, flags with AT, a counter and a P-256 credential.
    private static func attestedData(idLength: Int, counter: UInt32) -> [UInt8] {
        let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        let key = CBOREncoder.encode(
            .map([
                .init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .negative(6)), .init(.negative(0), .unsigned(1)),
                .init(.negative(1), .bytes(Array(point[1...32]))), .init(.negative(2), .bytes(Array(point[33...64]))),
            ])
        )
        return [UInt8](repeating: 0x42, count: 32) + [0x45] + withUnsafeBytes(of: counter.bigEndian) { Array($0) } + [UInt8](repeating: 1, count: 16)
            + [UInt8(idLength >> 8), UInt8(idLength & 0xFF)] + [UInt8](repeating: 9, count: idLength) + key
    }

    @Test("random bytes never crash the authenticator data, attestation object or client data parsers")
    func randomBytes() async {
        await propertyCheck(count: 3_000, input: anyBytes) { data in
            let bytes = Array(data)
            _ = try? AuthenticatorData(bytes)
            _ = try? AttestationObject(bytes)
            _ = try? CollectedClientData(bytes)
            _ = try? AuthenticatorData([UInt8](repeating: 0, count: 32) + [0xC5, 0, 0, 0, 0] + bytes)
        }
    }

    @Test("honest authenticator data parses to its parts; any truncation or appended byte is refused")
    func truncationAndTrailingBytes() async {
        await propertyCheck(count: 200, input: zip(Gen.int(in: 1...300), Gen.uint32())) { idLength, counter in
            let bytes = Self.attestedData(idLength: idLength, counter: counter)
            let parsed = try? AuthenticatorData(bytes)
            #expect(parsed?.signCount == counter && parsed?.attestedCredential?.credentialID.count == idLength)
            #expect((try? AuthenticatorData(bytes + [0])) == nil)
            #expect((try? AuthenticatorData(Array(bytes.dropLast(Int(counter % 40) + 1)))) == nil)
        }
    }

    @Test("an attestation object built around random authenticator data and statement bytes never crashes verification")
    func randomStatements() async {
        await propertyCheck(count: 500, input: zip(anyBytes, pick(["none", "packed", "fido-u2f", "apple", "android-key", "tpm", "x"]))) {
            data,
            format in
            let statement: CBORValue = .map([
                .init(.text("alg"), .negative(6)), .init(.text("sig"), .bytes(Array(data))),
                .init(.text("x5c"), .array([.bytes(Array(data))])), .init(.text("ver"), .text("2.0")),
                .init(.text("certInfo"), .bytes(Array(data))), .init(.text("pubArea"), .bytes(Array(data))),
            ])
            let object = CBOREncoder.encode(
                .map([
                    .init(.text("fmt"), .text(format)), .init(.text("attStmt"), statement),
                    .init(.text("authData"), .bytes(Self.attestedData(idLength: 16, counter: 1))),
                ])
            )
            if let parsed = try? AttestationObject(object) {
                #expect(throws: WebAuthnError.self) { try AttestationStatement.verify(parsed, clientDataHash: Array(data)) }
            }
        }
    }
}
