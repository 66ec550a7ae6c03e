import BioAuthProtocol
import Foundation
import SQLKit

/// A registration row (a biometric or PIN device key) with its parsed key.
struct StoredRegistration: Sendable {
    var wire: Registration
    var userID: String
    var publicKey: DevicePublicKey

    var algorithm: SignatureAlgorithm { publicKey.algorithm }

    private static let columns = "id, user_id, kind, algorithm, public_key, label, status, created_at, last_used_at"

    /// A pending or active registration of the user's.
    static func find(_ db: any SQLDatabase, id: String, userID: String) async throws -> StoredRegistration? {
        try await db.raw("""
            SELECT \(unsafeRaw: columns) FROM registrations
            WHERE id = \(bind: id) AND user_id = \(bind: userID) AND status IN ('pending', 'active')
            """).first().map(StoredRegistration.init(row:))
    }

    /// The user's pending and active registrations, newest first.
    static func all(_ db: any SQLDatabase, userID: String) async throws -> [StoredRegistration] {
        try await db.raw("""
            SELECT \(unsafeRaw: columns) FROM registrations
            WHERE user_id = \(bind: userID) AND status IN ('pending', 'active') ORDER BY created_at DESC, id
            """).all().map(StoredRegistration.init(row:))
    }

    /// The key in a row with `algorithm` and `public_key` columns.
    static func publicKey(from row: any SQLRow) throws -> DevicePublicKey {
        let algorithm = try row.decodeEnum(column: "algorithm", as: SignatureAlgorithm.self)
        do {
            return try DevicePublicKey(algorithm: algorithm, canonicalBytes: try row.decode(column: "public_key", as: Data.self))
        } catch {
            throw CorruptRowError(column: "public_key")
        }
    }

    private init(row: any SQLRow) throws {
        publicKey = try Self.publicKey(from: row)
        userID = try row.decode(column: "user_id", as: String.self)
        wire = Registration(
            id: try row.decode(column: "id", as: String.self),
            kind: try row.decodeEnum(column: "kind", as: RegistrationKind.self),
            algorithm: publicKey.algorithm,
            label: try row.decode(column: "label", as: String.self),
            status: try row.decodeEnum(column: "status", as: Registration.Status.self),
            createdAt: try row.decodeDate(column: "created_at"),
            lastUsedAt: try row.decodeOptionalDate(column: "last_used_at"))
    }
}
