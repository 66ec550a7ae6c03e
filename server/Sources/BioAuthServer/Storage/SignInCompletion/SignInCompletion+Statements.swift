import BioAuthProtocol
import Foundation

extension SignInCompletion {
    /// The steps as separate statements inside the caller's transaction (SQLite, where a statement
    /// costs no round trip and the single writer already serialises every change).
    func runStatements(_ db: any StatementDatabase) async throws -> Verdict {
        if let challenge {
            guard try await spend(challenge, db) else { return .challengeSpent }
        }
        guard holds else { return .failed(locked: try await recordFailure(db)) }
        guard let userID, let account = try await UserTable.account(db, id: userID, epoch: epoch, factor: factor, now: now) else { return .stale }
        if let verdict = Self.verdict(onState: account.state) { return verdict }
        guard try await markUsed(userID: userID, oneTimePassword: account.passwordChangeRequired, db) else { return .credentialGone }
        try await FactorFailureTable.clear(db, usernameKey: account.usernameKey, factors: success.clears)
        let session: Session?
        switch success.purpose {
        case .newSession(var new, let tokenDigest):
            if account.passwordChangeRequired {
                new.passwordChangeRequired = true
                new.expiresAt = min(new.expiresAt, restrictedExpiry)
            }
            try await SessionTable.insert(db, new, tokenDigest: tokenDigest)
            session = new
        case .renew(let sessionID):
            guard let renewed = try await SessionTable.renew(db, id: sessionID, userID: userID, factor: factor, stepsUp: success.stepsUp, now: now)
            else { return .sessionEnded }
            session = renewed
        case .record(let approval):
            guard try await approve(approval, userID: userID, db) else { return .confirmationClosed }
            session = nil
        }
        try await AuditLog.record(
            db,
            userID: userID,
            type: success.event,
            outcome: .success,
            at: now,
            registrationID: credential.registrationID,
            passkeyID: credential.passkeyID,
            sessionID: session?.id
        )
        return .completed(account.user, session)
    }

    /// Spends the challenge; `false` when it was spent before or has expired.
    private func spend(_ challenge: ChallengeToSpend, _ db: any StatementDatabase) async throws -> Bool {
        switch challenge {
        case .authentication(let challenge): try await SpentChallengeTable.spend(db, challenge, now: now.millisecondsSince1970)
        case .webAuthn(let id, let ceremony): try await WebAuthnChallengeTable.consume(db, id: id, ceremony: ceremony, now: now)
        }
    }

    /// Counts a failure, locking the factor when the policy says so; whether it locked.
    private func recordFailure(_ db: any StatementDatabase) async throws -> Bool {
        var locked = false
        if let (attempt, lock) = failure.lock {
            locked = try await FactorFailureTable.lock(db, attempt, lock, clock: lockClock)
        }
        if let subject = failure.subject {
            try await AuditLog.count(
                db,
                subject,
                type: failure.event,
                outcome: .failure,
                at: now,
                registrationID: credential.registrationID,
                passkeyID: credential.passkeyID
            )
        }
        if let event = failure.recordedEvent, let userID {
            try await AuditLog.record(db, userID: userID, type: event, outcome: .failure, at: now, passkeyID: credential.passkeyID)
        }
        if let confirmation, let userID {
            let bound: [String: SQLValue] = ["confirmation_id": .text(confirmation.confirmationID), "user_id": .text(userID), "now": .time(now)]
            _ = try await db.rows(ConfirmationTable.fail, bound)
        }
        return locked
    }

    /// Approves the confirmation with the proof's factor and credential; `false` when it is no
    /// longer pending (or not the account's).
    private func approve(_ approval: ConfirmationApproval, userID: String, _ db: any StatementDatabase) async throws -> Bool {
        let bound: [String: SQLValue] = [
            "confirmation_id": .text(approval.confirmationID), "user_id": .text(userID), "now": .time(now), "factor": .text(factor.rawValue),
            "credential_kind": .text(credential.registrationID != nil ? "device_key" : credential.passkeyID != nil ? "passkey" : "none"),
            "credential_id": .text(credential.registrationID ?? credential.passkeyID ?? ""), "receipt": .text(approval.receipt),
        ]
        return try await !db.rows(ConfirmationTable.approve, bound).isEmpty
    }

    /// Records the credential's use (spending a one-time password); `false` when it is no longer current.
    private func markUsed(userID: String, oneTimePassword: Bool, _ db: any StatementDatabase) async throws -> Bool {
        switch credential {
        case .password:
            oneTimePassword ? try await UserTable.spendOneTimePassword(db, id: userID, now: now) : true
        case .deviceKey(let registrationID, let newPINHash):
            try await RegistrationTable.markUsed(db, id: registrationID, userID: userID, now: now, newPINHash: newPINHash)
        case .passkey(let id, let verifiedSignCount, let signCount, let backedUp):
            try await PasskeyTable.markUsed(
                db,
                id: id,
                userID: userID,
                expectedSignCount: verifiedSignCount,
                signCount: signCount,
                backedUp: backedUp,
                now: now
            )
        }
    }
}
