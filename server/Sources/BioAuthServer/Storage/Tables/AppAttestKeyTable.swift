import BioAuthAttestation
import Foundation
import SQLKit

/// The `app_attest_keys` table: App Attest keys the server verified, and their last counter.
enum AppAttestKeyTable {
    /// The key with id `keyID`, if verified before.
    static func find(_ db: any StatementDatabase, keyID: [UInt8]) async throws -> AppAttestKey? {
        guard let row = try await db.raw("SELECT public_key, app_id, counter FROM app_attest_keys WHERE key_id = \(bind: Data(keyID))").first() else {
            return nil
        }
        return AppAttestKey(
            keyID: keyID,
            publicKey: Array(try row.decode(column: "public_key", as: Data.self)),
            appID: try row.decode(column: "app_id", as: String.self),
            counter: UInt32(clamping: try row.decode(column: "counter", as: Int64.self))
        )
    }

    /// Records a newly attested key; false when its id is already known (attested before).
    static func insert(_ db: any StatementDatabase, _ key: AppAttestKey, now: Date) async throws -> Bool {
        try await !db.raw(
            """
            INSERT INTO app_attest_keys (key_id, public_key, app_id, counter, created_at)
            VALUES (\(bind: Data(key.keyID)), \(bind: Data(key.publicKey)), \(bind: key.appID), \(bind: Int64(key.counter)), \(bind: now.millisecondsSince1970))
            ON CONFLICT (key_id) DO NOTHING RETURNING key_id
            """
        ).all().isEmpty
    }

    /// Moves the key's counter from `previous` to `next`; false when another assertion moved it first.
    static func advance(_ db: any StatementDatabase, keyID: [UInt8], from previous: UInt32, to next: UInt32) async throws -> Bool {
        try await !db.raw(
            """
            UPDATE app_attest_keys SET counter = \(bind: Int64(next))
            WHERE key_id = \(bind: Data(keyID)) AND counter = \(bind: Int64(previous)) RETURNING key_id
            """
        ).all().isEmpty
    }
}
