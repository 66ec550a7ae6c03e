import BioAuthTesting
import Crypto
import Foundation
import Testing

@testable import BioAuthWebAuthn

/// Authenticator data is parsed strictly: exactly what its flags announce, and nothing after.
@Suite("Authenticator data: the flags decide what follows")
struct AuthenticatorDataTests {
    static let rpIDHash = Array(SHA256.hash(data: Array("example.com".utf8)))

    static func key() -> [UInt8] {
        let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        return CBOREncoder.encode(
            .map([
                .init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .negative(6)), .init(.negative(0), .unsigned(1)),
                .init(.negative(1), .bytes(Array(point[1...32]))), .init(.negative(2), .bytes(Array(point[33...64]))),
            ])
        )
    }

    static func attested(idLength: Int = 16) -> [UInt8] {
        [UInt8](repeating: 0xAA, count: 16) + [UInt8(idLength >> 8), UInt8(idLength & 0xFF)] + [UInt8](repeating: 7, count: idLength) + key()
    }

    @Test("a 37-byte assertion's data: hash, flags and the big-endian counter")
    func minimal() throws {
        let data = try AuthenticatorData(Self.rpIDHash + [0x05, 0x00, 0x00, 0x01, 0x02])
        #expect(data.rpIDHash == Self.rpIDHash && data.flags == [.userPresent, .userVerified] && data.signCount == 258)
        #expect(data.attestedCredential == nil && data.extensions == nil)
    }

    @Test("attested credential data when AT is set: AAGUID, id and the COSE key, kept as sent")
    func attested() throws {
        let data = try AuthenticatorData(Self.rpIDHash + [0x45, 0, 0, 0, 0] + Self.attested())
        let credential = try #require(data.attestedCredential)
        #expect(credential.credentialID == [UInt8](repeating: 7, count: 16) && credential.publicKey.algorithm == .es256)
        #expect(credential.aaguid.uuidString == "AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA")
    }

    @Test("refused: too short, trailing bytes, AT without data, data without AT, ED without a map, an id over 1023 bytes")
    func refusals() {
        let cases: [([UInt8], WebAuthnError.Reason)] = [
            (Array(Self.rpIDHash.prefix(20)), .invalidAuthenticatorData),
            (Self.rpIDHash + [0x01, 0, 0, 0, 0, 0xFF], .invalidAuthenticatorData),
            (Self.rpIDHash + [0x41, 0, 0, 0, 0], .invalidAuthenticatorData),
            (Self.rpIDHash + [0x01, 0, 0, 0, 0] + Self.attested(), .invalidAuthenticatorData),
            (Self.rpIDHash + [0x81, 0, 0, 0, 0], .invalidAuthenticatorData),
            (Self.rpIDHash + [0x81, 0, 0, 0, 0, 0x01], .invalidAuthenticatorData),
            (Self.rpIDHash + [0x41, 0, 0, 0, 0] + Self.attested(idLength: 1024), .invalidCredentialID),
            (Self.rpIDHash + [0x41, 0, 0, 0, 0] + Self.attested(idLength: 0), .invalidCredentialID),
            (Self.rpIDHash + [0x41, 0, 0, 0, 0] + Self.attested().dropLast(3), .invalidCredentialPublicKey),
        ]
        for (bytes, reason) in cases {
            #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes) }
            do { _ = try AuthenticatorData(bytes) } catch { #expect(error.reason == reason, "\(bytes.count) bytes") }
        }
    }

    @Test("an extensions map after the credential is parsed when ED is set")
    func extensions() throws {
        let map = CBOREncoder.encode(.map([.init(.text("credProtect"), .unsigned(2))]))
        let data = try AuthenticatorData(Self.rpIDHash + [0xC5, 0, 0, 0, 1] + Self.attested() + map)
        #expect(data.extensions?["credProtect"] == .unsigned(2))
    }
}
