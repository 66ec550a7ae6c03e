import BioAuthProtocol
import Foundation

/// Device keys across every account, by the verdict on their hardware evidence: what an operator
/// lists and revokes after moving `--key-attestation` from `prefer` to `require`, when keys that
/// `require` would have refused are still registered.
extension AccountAdministration {
    /// A live (pending or active) device key as an operator sees it.
    package struct DeviceKey: Sendable, Equatable, CustomStringConvertible {
        /// `reg_…`
        package var id: String
        /// Its account.
        package var account: Account
        /// `biometric` or `pin`.
        package var kind: String
        /// `pending` or `active`.
        package var status: String
        /// The verdict on its evidence; `nil` when none was looked at (`--key-attestation none`).
        package var verdict: String?
        /// When it was registered.
        package var createdAt: Date
        /// `reg_… biometric active, verdict absent, registered 2026-11-27T…Z, of usr_… "alice", created 2026-11-26T…Z`.
        package var description: String {
            "\(id) \(kind) \(status), verdict \(verdict ?? "none"), registered \(WireJSON.formatTimestamp(createdAt)), of \(account)"
        }
    }

    /// Every live device key whose verdict `filter` takes, oldest first.
    package func deviceKeys(_ filter: KeyVerdictFilter) async throws -> [DeviceKey] {
        try await core.database.read { db in try await RegistrationTable.liveKeys(db, verdict: filter) }.map { key in
            DeviceKey(
                id: key.id,
                account: Account(id: key.userID, username: key.username, createdAt: key.userCreatedAt),
                kind: key.kind,
                status: key.status,
                verdict: key.verdict,
                createdAt: key.createdAt
            )
        }
    }

    /// Revokes every live device key whose verdict `filter` takes, each as its own credential change
    /// (its account's verifications in flight void, the sessions it signed in end, an audit event in
    /// its account's trail); returns the keys revoked.
    package func revokeDeviceKeys(_ filter: KeyVerdictFilter) async throws -> [DeviceKey] {
        var revoked: [DeviceKey] = []
        for key in try await deviceKeys(filter) {
            _ = try await core.change(.deviceKeyRevoked(key.id, of: key.account.id))
            revoked.append(key)
        }
        return revoked
    }
}
