import BioAuthProtocol
import Foundation
import Testing

/// docs/confirmation-vectors.json, as scripts/make_confirmation_vectors.py writes it: details with
/// their canonical form, hash, text, message and signatures, and details the rules refuse.
struct ConfirmationVectors: Decodable {
    /// Details every implementation accepts, and what follows from them.
    struct Valid: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var confirmationID: String
        var details: ConfirmationDetails
        var canonicalJSON: String
        var detailsHash: String
        var text: ConfirmationTextBody
        var messageHex: String
        var signatures: [String: String]

        var testDescription: String { name }

        enum CodingKeys: String, CodingKey {
            case name, details, text, signatures
            case confirmationID = "confirmation_id"
            case canonicalJSON = "canonical_json"
            case detailsHash = "details_hash"
            case messageHex = "message_hex"
        }
    }

    /// Details refused with `code` for `field`.
    struct Invalid: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var confirmationID: String
        var details: ConfirmationDetails
        /// The details as the file has them, members this version does not know included.
        var members: [String: String]
        var code: String
        var field: String
        var why: String

        var testDescription: String { name }

        enum CodingKeys: String, CodingKey {
            case name, details, code, field, why
            case confirmationID = "confirmation_id"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            confirmationID = try container.decode(String.self, forKey: .confirmationID)
            details = try container.decode(ConfirmationDetails.self, forKey: .details)
            members = try container.decode([String: String].self, forKey: .details)
            code = try container.decode(String.self, forKey: .code)
            field = try container.decode(String.self, forKey: .field)
            why = try container.decode(String.self, forKey: .why)
        }
    }

    var rpID: String
    var registrationID: String
    var challenge: String
    var publicKeys: [String: String]
    var valid: [Valid]
    var invalid: [Invalid]

    enum CodingKeys: String, CodingKey {
        case challenge, valid, invalid
        case rpID = "rp_id"
        case registrationID = "registration_id"
        case publicKeys = "public_keys"
    }

    /// The file, read from the repository this source file is in (the nearest folder above it
    /// with docs/confirmation-vectors.json: the server's tests compile this file through a link).
    static func load() throws -> ConfirmationVectors {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let file = folder.appendingPathComponent("docs/confirmation-vectors.json")
            if FileManager.default.fileExists(atPath: file.path) {
                return try JSONDecoder().decode(ConfirmationVectors.self, from: Data(contentsOf: file))
            }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "docs/confirmation-vectors.json"])
    }
}
