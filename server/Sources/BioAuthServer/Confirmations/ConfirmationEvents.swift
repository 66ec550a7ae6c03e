import BioAuthProtocol
import Foundation

/// What a service credential's webhook hears: when one of its confirmations is approved, declined
/// or blocked (expiry is not pushed), a compact JWS with `typ` `bioauth-event+jwt` signed with the
/// access-token signing keys: `iss`, `iat`, `jti`, `sub`, `confirmation_id`, `status`, and the
/// `receipt` when approved. ``WebhookDelivery`` sends it in the background.
///
/// The event is read from the database and signed when its turn in the queue comes, so it states
/// what is stored, and the change that decided the confirmation never waits for it. Its `jti` is
/// the confirmation's id and status: one outcome is one event, however often it is queued or
/// retried, and the backend drops the repeats. A revoked credential's webhook hears nothing.
struct ConfirmationEvents: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource
    let keys: SigningKeyStore
    /// `iss`.
    let issuer: String
    let delivery: WebhookDelivery

    /// The JWS header's `typ`.
    static let type = "bioauth-event+jwt"
    /// The outcomes that are pushed.
    static let pushed: Set<ConfirmationStatus> = [.approved, .declined, .blocked]

    /// Queues the event of confirmation `id`, to be sent if it has been decided by then: called
    /// after every change that may decide it (an approval, a failed one, a decline).
    func mayHaveDecided(_ id: String) {
        delivery.enqueue(WebhookDelivery.Event(confirmationID: id, prepare: { try await post(for: id) }))
    }

    /// The post of confirmation `id`'s outcome; `nil` when it is not decided, or its credential
    /// has no webhook or was revoked.
    func post(for id: String) async throws -> WebhookDelivery.Post? {
        let found = try await database.read { db -> (StoredConfirmation, String)? in
            guard let confirmation = try await ConfirmationTable.find(db, id: id), Self.pushed.contains(confirmation.storedStatus),
                let credential = try await ServiceCredentialTable.find(db, id: confirmation.serviceCredentialID),
                credential.revokedAt == nil, let url = credential.webhookURL
            else { return nil }
            return (confirmation, url)
        }
        guard let (confirmation, url) = found else { return nil }
        let claims = Self.claims(confirmation, issuer: issuer, at: time.now())
        return WebhookDelivery.Post(url: url, body: try await keys.signer().compactJWS(type: Self.type, payload: claims))
    }

    /// The claims of `confirmation`'s outcome, issued at `now`.
    static func claims(_ confirmation: StoredConfirmation, issuer: String, at now: Date) -> JOSEJSON {
        let status = confirmation.storedStatus.rawValue
        var claims: [(String, JOSEJSON)] = [
            ("iss", .string(issuer)), ("iat", .integer(Int64(now.timeIntervalSince1970.rounded(.down)))),
            ("jti", .string("\(confirmation.id).\(status)")), ("sub", .string(confirmation.userID)),
            ("confirmation_id", .string(confirmation.id)), ("status", .string(status)),
        ]
        if confirmation.storedStatus == .approved, let receipt = confirmation.receipt { claims.append(("receipt", .string(receipt))) }
        return .object(claims)
    }
}
