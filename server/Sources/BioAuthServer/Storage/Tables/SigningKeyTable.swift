import Foundation
import SQLKit

/// One access-token signing key as stored: its public half in the clear, its private half sealed
/// (``SigningKeyWrap``), and its place in the schedule.
struct StoredSigningKey: Sendable, Equatable {
    /// The key id (`kid`): the RFC 7638 thumbprint of its public key.
    var kid: String
    /// Its place in the order of keys: each new key takes the next number, once (unique).
    var generation: Int64
    /// `ES256` or `EdDSA`.
    var algorithm: String
    /// The public key, raw (P-256: x‖y; Ed25519: 32 bytes).
    var publicKey: Data
    /// The private key, sealed.
    var sealedPrivateKey: Data
    /// The id of the file key that sealed it.
    var wrapKeyID: String
    /// When it was stored: from then on it is in the key set.
    var createdAt: Date
    /// When it starts signing.
    var activatesAt: Date
    /// When an operator retired it (it signs no more from then on), if one did.
    var retiredAt: Date?
}

/// The `signing_keys` table: the access-token signing keys every instance shares.
enum SigningKeyTable {
    /// Every key, oldest generation first.
    static func all(_ db: any StatementDatabase) async throws -> [StoredSigningKey] {
        try await db.raw(
            """
            SELECT kid, generation, algorithm, public_key, private_key, wrap_key_id, created_at, activates_at, retired_at
            FROM signing_keys ORDER BY generation
            """
        ).all().map { row in
            StoredSigningKey(
                kid: try row.decode(column: "kid", as: String.self),
                generation: try row.decode(column: "generation", as: Int64.self),
                algorithm: try row.decode(column: "algorithm", as: String.self),
                publicKey: try row.decode(column: "public_key", as: Data.self),
                sealedPrivateKey: try row.decode(column: "private_key", as: Data.self),
                wrapKeyID: try row.decode(column: "wrap_key_id", as: String.self),
                createdAt: try row.decodeDate(column: "created_at"),
                activatesAt: try row.decodeDate(column: "activates_at"),
                retiredAt: try row.decodeOptionalDate(column: "retired_at")
            )
        }
    }

    /// Stores a new key; false when another key already took its generation (another instance
    /// rotated at the same time, and won).
    static func insert(_ db: any StatementDatabase, _ key: StoredSigningKey) async throws -> Bool {
        try await !db.raw(
            """
            INSERT INTO signing_keys (kid, generation, algorithm, public_key, private_key, wrap_key_id, created_at, activates_at)
            VALUES (\(bind: key.kid), \(bind: key.generation), \(bind: key.algorithm), \(bind: key.publicKey), \(bind: key.sealedPrivateKey),
                    \(bind: key.wrapKeyID), \(bind: key.createdAt.millisecondsSince1970), \(bind: key.activatesAt.millisecondsSince1970))
            ON CONFLICT DO NOTHING RETURNING kid
            """
        ).all().isEmpty
    }

    /// Retires key `kid` at `now`; false when there is no such key or it was retired before.
    static func retire(_ db: any StatementDatabase, kid: String, now: Date) async throws -> Bool {
        try await !db.raw(
            "UPDATE signing_keys SET retired_at = \(bind: now.millisecondsSince1970) WHERE kid = \(bind: kid) AND retired_at IS NULL RETURNING kid"
        ).all().isEmpty
    }

    /// Moves the activation of key `kid`, not retired, to `time`; false when there is none.
    static func activate(_ db: any StatementDatabase, kid: String, at time: Date) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE signing_keys SET activates_at = \(bind: time.millisecondsSince1970)
            WHERE kid = \(bind: kid) AND retired_at IS NULL RETURNING kid
            """
        ).all().isEmpty
    }
}
