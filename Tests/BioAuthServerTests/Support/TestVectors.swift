import BioAuthProtocol
import Foundation

/// docs/test-vectors.json, the byte-exact vectors other clients check themselves against.
struct TestVectors: Decodable, Sendable {
    struct InvalidSignature: Decodable, Sendable, CustomStringConvertible {
        var name: String
        var algorithm: SignatureAlgorithm
        var signature: String
        var expectedError: String
        var description: String { name }

        enum CodingKeys: String, CodingKey {
            case name, algorithm, signature
            case expectedError = "expected_error"
        }
    }

    struct InvalidPublicKey: Decodable, Sendable, CustomStringConvertible {
        var name: String
        var algorithm: SignatureAlgorithm
        var publicKey: String
        var description: String { name }

        enum CodingKeys: String, CodingKey {
            case name, algorithm
            case publicKey = "public_key"
        }
    }

    var invalid: [InvalidSignature]
    var invalidPublicKeys: [InvalidPublicKey]

    enum CodingKeys: String, CodingKey {
        case invalid
        case invalidPublicKeys = "invalid_public_keys"
    }

    static let shared: TestVectors = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/test-vectors.json")
        return try! JSONDecoder().decode(TestVectors.self, from: Data(contentsOf: url))
    }()

    /// Signatures that are malformed whatever key and message they meet.
    static var malformedSignatures: [InvalidSignature] {
        shared.invalid.filter { $0.expectedError == "invalid_signature_encoding" }
    }
}
