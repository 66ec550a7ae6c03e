import BioAuthProtocol
import Foundation

/// The operator's bank-backend credentials (`bioauth admin service-credentials`): make one (its
/// secret shown once, only its SHA-256 stored), list them, revoke one. A service credential may
/// create confirmations and read its own; it is never a user's session.
package struct ServiceCredentialAdministration: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource

    /// A failure an operator can act on.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// Makes a credential named `name` (1…100 characters, no control characters) whose events go to `webhookURL`
    /// (``WebhookURL``); returns it and its secret, which is not stored and cannot be shown again.
    package func create(name: String, webhookURL: String?) async throws -> (credential: StoredServiceCredential, secret: String) {
        guard (1...100).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Failure(description: "--name: 1 to 100 characters, no control characters")
        }
        if let webhookURL, !WebhookURL.isAcceptable(webhookURL) {
            throw Failure(description: "--webhook-url: an https URL, or http only to localhost, 127.0.0.1 or ::1")
        }
        let now = time.now()
        let idBytes = SecureRandom.identifierBytes(at: now)
        let token = SessionToken.generate(sessionIDBytes: idBytes, format: .serviceCredential)
        let credential = StoredServiceCredential(
            id: IdentifierPrefix.serviceCredential.spelling(idBytes),
            name: name,
            webhookURL: webhookURL,
            createdAt: now
        )
        try await database.transaction { db in try await ServiceCredentialTable.insert(db, credential, digest: token.digest) }
        return (credential, token.text)
    }

    /// Every credential, oldest first.
    package func list() async throws -> [StoredServiceCredential] {
        try await database.read { db in try await ServiceCredentialTable.all(db) }
    }

    /// Revokes credential `id` now: it is refused from then on.
    package func revoke(id: String) async throws -> StoredServiceCredential {
        let now = time.now()
        return try await database.transaction { db in
            guard try await ServiceCredentialTable.revoke(db, id: id, now: now), let revoked = try await ServiceCredentialTable.find(db, id: id)
            else { throw Failure(description: "no service credential \(id) that is not revoked already") }
            return revoked
        }
    }

    /// Closes the database.
    package func close() async throws {
        try await database.shutdown()
    }
}
