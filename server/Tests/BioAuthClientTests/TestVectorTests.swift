import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Field decoding shared by the vector tests; a malformed vector fails the test, not the run.
private func bytes(base64URL text: String, _ field: String) throws -> Data {
    guard let data = Data(referenceBase64URL: text) else {
        throw TestSupport.FixtureError(description: "\(field) is not base64url: \(text)")
    }
    // The module's strict decoder must agree with the reference on every vector field.
    #expect(Base64URL.decode(text) == data, "Base64URL.decode disagrees on \(field)")
    return data
}

private func bytes(hex text: String, _ field: String) throws -> Data {
    guard let data = Data(hex: text) else { throw TestSupport.FixtureError(description: "\(field) is not hex") }
    return data
}

private func algorithm(_ name: String) throws -> SignatureAlgorithm {
    guard let algorithm = SignatureAlgorithm(rawValue: name) else {
        throw TestSupport.FixtureError(description: "unknown algorithm \(name)")
    }
    return algorithm
}

private func ceremony(_ name: String) throws -> Ceremony {
    switch name {
    case "registration": .registration
    case "authentication": .authentication
    default: throw TestSupport.FixtureError(description: "unknown ceremony \(name)")
    }
}

@Suite("Test vectors (docs/test-vectors.json)")
struct TestVectorTests {
    @Test("The vector file has the documented number of vectors")
    func counts() throws {
        let file = try TestVectors.load()
        #expect(file.valid.count == 9)
        #expect(file.invalid.count == 15)
        #expect(file.invalidPublicKeys.count == 6)
    }

    @Test(
        "Valid vector: message rebuilds, key and signature parse, signature verifies",
        arguments: try TestVectors.load().valid
    )
    func valid(_ vector: TestVectors.Valid) throws {
        let algorithm = try algorithm(vector.algorithm)
        let challenge = try bytes(base64URL: vector.challenge, "challenge")
        let expectedMessage = try bytes(hex: vector.messageHex, "message_hex")

        let message = try SignedMessage(
            ceremony: ceremony(vector.ceremony),
            relyingPartyID: vector.rpID,
            registrationID: vector.registrationID,
            challenge: challenge
        ).encoded()
        #expect(message.hex == expectedMessage.hex)

        let key = try DevicePublicKey(algorithm: algorithm, bytes: bytes(base64URL: vector.publicKey, "public_key"))
        #expect(key.algorithm == algorithm)
        let signature = try DeviceSignature(algorithm: algorithm, bytes: bytes(base64URL: vector.signature, "signature"))
        #expect(signature.algorithm == algorithm)
        #expect(key.isValidSignature(signature, for: expectedMessage))
        #expect(key.isValidSignature(signature, for: message))

        // One flipped message bit must break it.
        var tampered = expectedMessage
        tampered[tampered.count - 1] ^= 0x01
        #expect(!key.isValidSignature(signature, for: tampered))
    }

    @Test("Valid vector: the private key derives the vector's public key", arguments: try TestVectors.load().valid)
    func privateKeyDerivesPublicKey(_ vector: TestVectors.Valid) throws {
        let algorithm = try algorithm(vector.algorithm)
        let privateBytes = try bytes(hex: vector.privateKeyHex, "private_key_hex")
        let key = try DevicePublicKey(algorithm: algorithm, bytes: bytes(base64URL: vector.publicKey, "public_key"))
        switch algorithm {
        case .es256:
            let privateKey = try P256.Signing.PrivateKey(rawRepresentation: privateBytes)
            #expect(key.canonicalBytes == privateKey.publicKey.x963Representation)
        case .ed25519:
            let privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: privateBytes)
            #expect(key.canonicalBytes == privateKey.publicKey.rawRepresentation)
        }
        // The encoding label matches what was sent.
        let sent = try bytes(base64URL: vector.publicKey, "public_key")
        switch vector.publicKeyEncoding {
        case "x963", "raw": #expect(sent == key.canonicalBytes)
        case "spki": #expect(sent == key.subjectPublicKeyInfo)
        default: Issue.record("unknown public_key_encoding \(vector.publicKeyEncoding)")
        }
    }

    @Test(
        "Valid vector: re-signing with the private key verifies (Ed25519: byte-identical)",
        arguments: try TestVectors.load().valid
    )
    func reSign(_ vector: TestVectors.Valid) throws {
        let algorithm = try algorithm(vector.algorithm)
        let privateBytes = try bytes(hex: vector.privateKeyHex, "private_key_hex")
        let message = try bytes(hex: vector.messageHex, "message_hex")
        let key = try DevicePublicKey(algorithm: algorithm, bytes: bytes(base64URL: vector.publicKey, "public_key"))
        switch algorithm {
        case .es256:
            let privateKey = try P256.Signing.PrivateKey(rawRepresentation: privateBytes)
            let der = try privateKey.signature(for: message).derRepresentation
            let signature = try DeviceSignature(algorithm: .es256, bytes: der)
            #expect(key.isValidSignature(signature, for: message))
        case .ed25519:
            let privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: privateBytes)
            let raw = try privateKey.signature(for: message)
            #expect(raw == (try bytes(base64URL: vector.signature, "signature")))
        }
    }

    @Test("Invalid vector: rejected for the stated reason", arguments: try TestVectors.load().invalid)
    func invalid(_ vector: TestVectors.Invalid) throws {
        let algorithm = try algorithm(vector.algorithm)
        let message = try bytes(hex: vector.messageHex, "message_hex")
        let key = try DevicePublicKey(algorithm: algorithm, bytes: bytes(base64URL: vector.publicKey, "public_key"))
        let signatureBytes = try bytes(base64URL: vector.signature, "signature")

        switch vector.expectedError {
        case "invalid_signature_encoding":
            #expect(throws: DeviceSignature.EncodingError.self, "\(vector.why)") {
                try DeviceSignature(algorithm: algorithm, bytes: signatureBytes)
            }
        case "signature_invalid":
            let signature = try DeviceSignature(algorithm: algorithm, bytes: signatureBytes)
            #expect(!key.isValidSignature(signature, for: message), "\(vector.why)")
        default:
            Issue.record("unknown expected_error \(vector.expectedError)")
        }
    }

    @Test("Invalid public key: rejected", arguments: try TestVectors.load().invalidPublicKeys)
    func invalidPublicKey(_ vector: TestVectors.InvalidPublicKey) throws {
        let algorithm = try algorithm(vector.algorithm)
        let keyBytes = try bytes(base64URL: vector.publicKey, "public_key")
        #expect(throws: DevicePublicKey.ParseError.self, "\(vector.why)") {
            try DevicePublicKey(algorithm: algorithm, bytes: keyBytes)
        }
    }
}
