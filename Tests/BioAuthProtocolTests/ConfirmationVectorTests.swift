import BioAuthProtocol
import Foundation
import Testing

/// The confirmation contract held to docs/confirmation-vectors.json, which an independent Python
/// implementation of docs/protocol/CONFIRMATIONS.md writes (scripts/make_confirmation_vectors.py).
@Suite("Confirmation vectors (docs/confirmation-vectors.json)")
struct ConfirmationVectorTests {
    private static let vectors = Result { try ConfirmationVectors.load() }

    private static func bytes(base64URL text: String) throws -> Data {
        guard let data = Data(referenceBase64URL: text) else { throw TestSupport.FixtureError(description: "not base64url: \(text)") }
        return data
    }

    @Test("The file has the cases it is meant to have")
    func counts() throws {
        let vectors = try Self.vectors.get()
        #expect(vectors.valid.count == 13)
        #expect(vectors.invalid.count == 76)
    }

    @Test("Valid details pass the rules and give the canonical form, hash and text", arguments: try vectors.get().valid)
    func derived(_ vector: ConfirmationVectors.Valid) throws {
        #expect(throws: Never.self) { try ConfirmationRules.check(vector.details, confirmationID: vector.confirmationID) }
        let canonical = vector.details.canonicalJSON(confirmationID: vector.confirmationID)
        #expect(String(decoding: canonical, as: UTF8.self) == vector.canonicalJSON)
        #expect(canonical == Data(vector.canonicalJSON.utf8))
        #expect(vector.details.hash(confirmationID: vector.confirmationID) == (try Self.bytes(base64URL: vector.detailsHash)))
        #expect(ConfirmationText(vector.details).map(ConfirmationTextBody.init) == vector.text)
    }

    @Test("Valid details: the message is the vector's bytes, and both test keys' signatures verify", arguments: try vectors.get().valid)
    func signed(_ vector: ConfirmationVectors.Valid) throws {
        let vectors = try Self.vectors.get()
        let message = try ConfirmationMessage(
            relyingPartyID: vectors.rpID,
            registrationID: vectors.registrationID,
            challenge: Self.bytes(base64URL: vectors.challenge),
            detailsHash: vector.details.hash(confirmationID: vector.confirmationID)
        ).encoded()
        #expect(message.hex == vector.messageHex)
        #expect(Set(vector.signatures.keys) == ["ES256", "Ed25519"])
        for (name, signatureText) in vector.signatures {
            let algorithm = try #require(SignatureAlgorithm(rawValue: name))
            let key = try DevicePublicKey(algorithm: algorithm, bytes: Self.bytes(base64URL: #require(vectors.publicKeys[name])))
            let signature = try DeviceSignature(algorithm: algorithm, bytes: Self.bytes(base64URL: signatureText))
            #expect(key.isValidSignature(signature, for: message), "\(name)")
            var otherDetails = message
            otherDetails[otherDetails.count - 1] ^= 0x01
            #expect(!key.isValidSignature(signature, for: otherDetails), "\(name)")
        }
    }

    @Test("Invalid details are refused with the vector's code and field", arguments: try vectors.get().invalid)
    func refused(_ vector: ConfirmationVectors.Invalid) {
        do {
            try ConfirmationRules.check(vector.details, confirmationID: vector.confirmationID)
            Issue.record("accepted: \(vector.why)")
        } catch {
            #expect(error.code.rawValue == vector.code, "\(vector.why)")
            #expect(error.field == vector.field, "\(vector.why)")
        }
    }
}
