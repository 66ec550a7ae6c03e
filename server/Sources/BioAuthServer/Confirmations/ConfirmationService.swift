import BioAuthProtocol
import Foundation

/// Confirmations: a bank's backend asks an account to approve a payment or an action
/// (``create(_:for:)``) and reads the outcome (``get(id:for:)``); the signed-in app lists the
/// account's (``list(for:)``) and declines one (``decline(id:for:)``). Approving is
/// ``ConfirmationApprovals``'.
///
/// Details are checked with ``ConfirmationRules`` (the one home of what may be shown and signed)
/// and, on the server only, a payee name written wholly in look-alikes of Latin letters
/// (``WholeScriptLookAlike``) is refused; every refusal stores nothing.
struct ConfirmationService: Sendable {
    let database: any DatabaseProvider
    let time: TimeSource
    /// The webhook's events of decided confirmations.
    let events: ConfirmationEvents

    /// The expiry a backend may ask for, in seconds, and the default.
    static let expiryRange = 30...3600
    static let defaultExpiry = 300

    /// Stores a pending confirmation of `request.details` for `request.userID`, asked by `service`.
    func create(_ request: CreateConfirmationRequest, for service: ServiceCaller) async throws -> Confirmation {
        let seconds = request.expiresInSeconds ?? Self.defaultExpiry
        guard Self.expiryRange.contains(seconds) else {
            throw Rejection(.invalidConfirmation, "expires_in_seconds is 30 to 3600.", reason: "expires_in_seconds")
        }
        let now = time.now()
        let id = SecureRandom.identifier(.confirmation, at: now)
        try Self.check(request.details, confirmationID: id)
        let canonical = request.details.canonicalJSON(confirmationID: id)
        let stored = StoredConfirmation(
            id: id,
            userID: request.userID,
            serviceCredentialID: service.id,
            details: request.details,
            canonical: String(decoding: canonical, as: UTF8.self),
            detailsHash: request.details.hash(confirmationID: id),
            storedStatus: .pending,
            failures: 0,
            createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(seconds))
        )
        try await database.transaction { db in
            guard try await UserTable.user(db, id: request.userID) != nil else {
                throw Rejection(.accountNotFound, "No account with that user_id.")
            }
            try await ConfirmationTable.insert(db, stored)
            try await AuditLog.record(db, userID: request.userID, type: .confirmationCreated, outcome: .success, at: now)
        }
        return stored.wire(at: now)
    }

    /// Refuses details that break ``ConfirmationRules``, or whose payee name imitates Latin
    /// letters with another script's: `400` with the rule's code and the field in `reason`.
    static func check(_ details: ConfirmationDetails, confirmationID: String) throws {
        do {
            try ConfirmationRules.check(details, confirmationID: confirmationID)
        } catch {
            throw Rejection(error.code, "\(error.field): \(error.reason)", reason: error.field)
        }
        if let payee = details.payeeName, WholeScriptLookAlike.imitatesLatin(payee) {
            throw Rejection(
                .invalidConfirmationText,
                "payee_name: It is written wholly in letters that look like Latin ones.",
                reason: "payee_name"
            )
        }
    }

    /// Confirmation `id` as `service` asked it; another credential's is `404 not_found`.
    func get(id: String, for service: ServiceCaller) async throws -> Confirmation {
        let now = time.now()
        guard let stored = try await database.read({ db in try await ConfirmationTable.find(db, id: id) }),
            stored.serviceCredentialID == service.id
        else { throw Self.notFound }
        return stored.wire(at: now)
    }

    /// The caller's account's pending confirmations, oldest first, then its latest others.
    func list(for caller: Caller) async throws -> ConfirmationList {
        let now = time.now()
        let stored = try await database.read { db in try await ConfirmationTable.list(db, userID: caller.userID, now: now) }
        return ConfirmationList(confirmations: stored.map { $0.wire(at: now) })
    }

    /// Declines the caller's pending confirmation `id`, with its audit event.
    func decline(id: String, for caller: Caller) async throws -> Confirmation {
        let now = time.now()
        let declined = try await database.transaction { db in
            guard try await ConfirmationTable.decline(db, id: id, userID: caller.userID, now: now) else {
                _ = try Self.pending(try await ConfirmationTable.find(db, id: id), of: caller, at: now)  // throws why
                throw Self.closed
            }
            try await AuditLog.record(db, userID: caller.userID, type: .confirmationDeclined, outcome: .success, at: now)
            guard let declined = try await ConfirmationTable.find(db, id: id) else { throw Self.notFound }
            return declined.wire(at: now)
        }
        events.mayHaveDecided(id)
        return declined
    }

    /// The caller's confirmation `id`, read now: `404 not_found` when it is another account's,
    /// `409 confirmation_closed` when it is no longer pending.
    func pending(id: String, for caller: Caller) async throws -> StoredConfirmation {
        let now = time.now()
        return try Self.pending(try await database.read { db in try await ConfirmationTable.find(db, id: id) }, of: caller, at: now)
    }

    /// Confirmation `id` after it changed (an approval), as the contract answers it.
    func read(id: String) async throws -> Confirmation {
        let now = time.now()
        guard let stored = try await database.read({ db in try await ConfirmationTable.find(db, id: id) }) else { throw Self.notFound }
        return stored.wire(at: now)
    }

    /// `stored`, if it is `caller`'s and pending at `now`.
    private static func pending(_ stored: StoredConfirmation?, of caller: Caller, at now: Date) throws -> StoredConfirmation {
        guard let stored, stored.userID == caller.userID else { throw notFound }
        guard stored.status(at: now) == .pending else { throw closed }
        return stored
    }

    private static var notFound: Rejection { Rejection(.notFound, "No such confirmation.") }
    private static var closed: Rejection { Rejection(.confirmationClosed, "The confirmation is no longer pending.") }
}
