import BioAuthProtocol
import Foundation

/// ``SignInCompletion`` on PostgreSQL: one prepared statement of data-modifying `WITH` steps, in
/// one round trip and one implicit transaction. Each step is its table's own fragment, the text
/// SQLite runs alone (``SignInCompletion/runStatements(_:)``), here behind a gate on the rows its
/// predecessors returned: a challenge spent before changes nothing, a proof that did not hold only
/// spends it and counts the failure, and an account whose state refuses the proof gets nothing.
/// Every data-modifying step runs once whether or not the query reads it.
///
/// Each factor and purpose gets a text holding only the steps it takes (a biometric sign-in's has
/// no lock, no passkey and no one-time password), prepared under a name of its own: PostgreSQL
/// opens the table and indexes of every data-modifying step of a statement whether it runs or not,
/// which cost a text for all credentials about 0.2 ms a sign-in. Parameters are bound by name
/// (``NamedSQL``).
///
/// The account's row is read `FOR KEY SHARE`: a credential change (``AccountCore/change(_:apply:)``)
/// takes `FOR UPDATE` on it first (``UserTable/lock(_:id:)``), so a completion either finishes
/// before the change begins, and the change then ends what it made, or waits for the change and
/// sees its new epoch.
enum SignInCompletionStatement {
    /// Runs `completion` as the statement and reads its verdict.
    static func run(_ completion: SignInCompletion, on db: any StatementDatabase) async throws -> SignInCompletion.Verdict {
        guard let row = try await rows(completion, on: db).first else { throw CorruptRowError(column: "sign-in completion") }
        guard try row.integer(0) > 0 else { return .challengeSpent }
        guard completion.holds else { return .failed(locked: try row.integer(1) > 0) }
        if let verdict = SignInCompletion.verdict(onState: try row.optionalText(7)) { return verdict }
        guard try row.integer(8) > 0 else { return .credentialGone }
        let account = try AccountRow(row, at: 2)
        if case .record = completion.success.purpose { return try row.integer(9) > 0 ? .completed(account.user, nil) : .confirmationClosed }
        guard try row.optionalText(9) != nil else { return .sessionEnded }
        return .completed(account.user, try SessionTable.session(row, at: 9, userID: account.user.id))
    }

    /// The statement's rows for `completion`, run under its factor's and purpose's text.
    private static func rows(_ completion: SignInCompletion, on db: any StatementDatabase) async throws -> [StatementRow] {
        let bound = bindings(completion)
        return switch (completion.factor, completion.success.purpose) {
        case (.biometric, .newSession): try await run(Text<Biometric, SignIn>.self, bound, on: db)
        case (.biometric, .renew): try await run(Text<Biometric, Renewal>.self, bound, on: db)
        case (.biometric, .record): try await run(Text<Biometric, Record>.self, bound, on: db)
        case (.pin, .newSession): try await run(Text<PIN, SignIn>.self, bound, on: db)
        case (.pin, .renew): try await run(Text<PIN, Renewal>.self, bound, on: db)
        case (.pin, .record): try await run(Text<PIN, Record>.self, bound, on: db)
        case (.passkey, .newSession): try await run(Text<Passkey, SignIn>.self, bound, on: db)
        case (.passkey, .renew): try await run(Text<Passkey, Renewal>.self, bound, on: db)
        case (.passkey, .record): try await run(Text<Passkey, Record>.self, bound, on: db)
        case (.password, .newSession): try await run(Text<Password, SignIn>.self, bound, on: db)
        case (.password, .renew): try await run(Text<Password, Renewal>.self, bound, on: db)
        case (.password, .record): try await run(Text<Password, Record>.self, bound, on: db)
        default: throw CorruptRowError(column: "factor \(completion.factor)")  // the server proves only the factors it knows
        }
    }

    /// Runs `text` with its parameters taken from `bound` by name.
    private static func run<F, P>(_ text: Text<F, P>.Type, _ bound: [String: SQLValue], on db: any StatementDatabase) async throws -> [StatementRow] {
        try await db.rows(text, text.statement.values(bound))
    }

    /// The text for a factor and a purpose, prepared once per connection under its own name.
    /// PostgresNIO reads the name and text on every execution: both come made from ``texts``.
    struct Text<Factor: FactorSteps, Purpose: PurposeSteps>: PreparedStatementText {
        static var variant: Variant { Variant(factor: Factor.factor, purpose: Purpose.purpose) }
        static var statement: NamedSQL { texts[variant]!.statement }
        static var name: String { texts[variant]!.name }
        static var sql: String { statement.text }
        static var parameters: [SQLType] { texts[variant]!.parameters }
    }

    /// A factor whose completion has a text of its own.
    protocol FactorSteps { static var factor: AuthenticationMethod { get } }
    enum Biometric: FactorSteps { static var factor: AuthenticationMethod { .biometric } }
    enum PIN: FactorSteps { static var factor: AuthenticationMethod { .pin } }
    enum Passkey: FactorSteps { static var factor: AuthenticationMethod { .passkey } }
    enum Password: FactorSteps { static var factor: AuthenticationMethod { .password } }

    /// What a completion makes: a new session, a renewal of the caller's, or only the record.
    enum PurposeKind: String, Hashable, CaseIterable {
        case signIn = "sign_in"
        case renewal, record
    }
    /// A purpose whose completion has a text of its own.
    protocol PurposeSteps { static var purpose: PurposeKind { get } }
    enum SignIn: PurposeSteps { static var purpose: PurposeKind { .signIn } }
    enum Renewal: PurposeSteps { static var purpose: PurposeKind { .renewal } }
    enum Record: PurposeSteps { static var purpose: PurposeKind { .record } }

    /// A factor and a purpose: which steps a text holds.
    struct Variant: Hashable {
        var factor: AuthenticationMethod
        var purpose: PurposeKind
    }

    /// Every text with its name and its parameters' types, by factor and purpose, assembled once.
    static let texts: [Variant: (name: String, statement: NamedSQL, parameters: [SQLType])] = Dictionary(
        uniqueKeysWithValues: AuthenticationMethod.allCases.flatMap { factor in
            PurposeKind.allCases.map { purpose in
                let statement = NamedSQL(steps(factor: factor, purpose: purpose))
                return (
                    Variant(factor: factor, purpose: purpose),
                    ("bioauth_completion_\(factor.rawValue)_\(purpose.rawValue)", statement, statement.types(types))
                )
            }
        }
    )

    /// Every parameter a text may use, by name, with its type.
    static let types: [String: SQLType] = {
        let integers = [
            "now", "holds", "ceremony", "epoch", "verified_count", "sign_count", "backed_up", "expires_at", "restricted_expires_at",
            "steps_up", "clears_password", "clears_pin", "window_start", "lockouts", "lock_kind", "lock_ms", "database_clock",
        ]
        let texts = [
            "spend_kind", "challenge_id", "user_id", "factor", "credential_kind", "credential_id", "new_pin_hash", "session_id", "event_id",
            "event_kind", "tally_id", "subject", "tally_kind", "lock_key", "lock_factor", "failure_event_id", "failure_event_kind",
            "confirmation_id", "receipt",
        ]
        var types = [String: SQLType](uniqueKeysWithValues: integers.map { ($0, .integer) } + texts.map { ($0, .text) })
        types["token_digest"] = .bytes
        return types
    }()

    /// The values of every parameter for `c`, by name: one dictionary sized for them all at once
    /// (growing and merging several cost a sign-in more than its statement's encoding). Where two
    /// sources name one parameter (`now`), the later wins. A completion that holds gets no failure
    /// event, so none is drawn for it.
    private static func bindings(_ c: SignInCompletion) -> [String: SQLValue] {
        var bound = [String: SQLValue](minimumCapacity: types.count + 8)
        let sources = [
            FactorFailureTable.lockBindings(c.failure.lock?.attempt, c.failure.lock?.lock, clock: c.lockClock),
            AuditLog.tallyBindings(c.failure.subject, type: c.failure.event, at: c.now),
            FactorFailureTable.clearBindings(c.success.clears),
            ownBindings(c),
        ]
        for source in sources {
            for (name, value) in source { bound[name] = value }
        }
        return bound
    }

    /// The parameters that are the completion's own, by name.
    private static func ownBindings(_ c: SignInCompletion) -> [String: SQLValue] {
        let (spendKind, challengeID, ceremony): (String, String, Int64) =
            switch c.challenge {
            case nil: ("none", "", 0)
            case .authentication(let challenge): ("authentication", challenge.id, 0)
            case .webAuthn(let id, let ceremony): ("webauthn", id, Int64(ceremony.rawValue))
            }
        let (credentialKind, credentialID, pinHash, verifiedCount, count, backedUp): (String, String, String?, Int64, Int64, Int64) =
            switch c.credential {
            case .password: ("password", "", nil, 0, 0, 0)
            case .deviceKey(let id, let hash): ("device_key", id, hash, 0, 0, 0)
            case .passkey(let id, let verified, let signCount, let backedUp):
                ("passkey", id, nil, Int64(verified), Int64(signCount), backedUp ? 1 : 0)
            }
        let (sessionID, tokenDigest, expiresAt): (String, [UInt8], Int64) =
            switch c.success.purpose {
            case .newSession(let session, let digest): (session.id, Array(digest), session.expiresAt.millisecondsSince1970)
            case .renew(let id): (id, [], 0)
            case .record: ("", [], 0)
            }
        let confirmation = c.confirmation
        return [
            "now": .time(c.now), "holds": .integer(c.holds ? 1 : 0), "spend_kind": .text(spendKind), "challenge_id": .text(challengeID),
            "ceremony": .integer(ceremony), "user_id": .text(c.userID ?? ""), "epoch": .integer(c.epoch), "factor": .text(c.factor.rawValue),
            "credential_kind": .text(credentialKind), "credential_id": .text(credentialID), "new_pin_hash": .text(pinHash),
            "verified_count": .integer(verifiedCount), "sign_count": .integer(count), "backed_up": .integer(backedUp),
            "session_id": .text(sessionID), "token_digest": .bytes(tokenDigest), "expires_at": .integer(expiresAt),
            "restricted_expires_at": .time(c.restrictedExpiry), "steps_up": .integer(c.success.stepsUp ? 1 : 0),
            "event_id": .text(SecureRandom.identifier(.event)), "event_kind": .text(c.success.event.rawValue),
            "failure_event_id": .text(c.holds ? "" : SecureRandom.identifier(.event)), "failure_event_kind": .text(c.failure.recordedEvent?.rawValue),
            "confirmation_id": .text(confirmation?.confirmationID ?? ""), "receipt": .text(confirmation?.receipt ?? ""),
        ]
    }

    /// The statement for `factor` and `purpose`, from the one set of steps below. Steps whose gates
    /// no completion of `factor` opens are left out: only the policy's factors lock and clear
    /// (LockoutPolicy), and only a passkey ceremony spends a WebAuthn challenge.
    static func steps(factor: AuthenticationMethod, purpose: PurposeKind) -> String {
        let locks = LockoutPolicy.Factor(rawValue: factor.rawValue) != nil
        let clears = !LockoutPolicy.cleared(bySuccessOf: factor).isEmpty
        let used = "EXISTS (SELECT 1 FROM used)"
        var steps = spending(factor) + failing(locks: locks, confirmation: purpose == .record) + using(factor)
        if clears { steps.append(step("cleared", FactorFailureTable.clearing(usernameKey: "(SELECT username_key FROM account)", when: used))) }
        steps += succeeding(purpose, when: used)
        let account = ["id", "username", "created_at", "username_key", "password_change_required", "state"].map { "account_row.\($0)" }
        // A record has no session: its first column counts the confirmation approved instead.
        var session = SessionTable.returnedColumns.split(separator: ", ").map { purpose == .record ? "NULL" : "session.\($0)" }
        if purpose == .record { session[0] = "(SELECT count(*) FROM approved)" }
        return "WITH " + steps.joined(separator: ",\n") + """

            SELECT (SELECT count(*) FROM spent), \(locks ? "(SELECT count(*) FROM locked)" : "0"), \(account.joined(separator: ", ")),
                   (SELECT count(*) FROM used), \(session.joined(separator: ", "))
            FROM (SELECT 1) AS one LEFT JOIN account_row ON true\(purpose == .record ? "" : " LEFT JOIN session ON true")
            """
    }

    /// Spending the challenge: `spent` has a row if it was not spent before.
    private static func spending(_ factor: AuthenticationMethod) -> [String] {
        let spendKey = step("spent_key", SpentChallengeTable.spending(when: ":spend_kind = 'authentication'"))
        switch factor {
        case .biometric:
            return [spendKey, "spent AS (SELECT 1 AS spent FROM spent_key)"]
        case .pin:
            // A PIN whose key's signature verified had its challenge spent by its reservation.
            return [spendKey, "spent AS (SELECT 1 AS spent FROM spent_key UNION ALL SELECT 1 WHERE :spend_kind = 'none')"]
        case .passkey:
            return [
                step("spent_ceremony", WebAuthnChallengeTable.consuming), "spent AS (SELECT 1 AS spent FROM spent_ceremony WHERE expires_at > :now)",
            ]
        case .password:
            return ["spent AS (SELECT 1 AS spent)"]
        default:
            preconditionFailure("\(factor) has no completion")  // texts are made for the known factors only
        }
    }

    /// A proof that did not hold: the lock (for a secret factor), the tally, a recorded event, and
    /// for a `confirmation` one more failure against it. One that held: the account, read and judged.
    private static func failing(locks: Bool, confirmation: Bool) -> [String] {
        let spent = "EXISTS (SELECT 1 FROM spent)"
        let lock = step(
            "locked",
            FactorFailureTable.locking(databaseNow: DatabaseClock.postgresNow, when: ":holds = 0 AND :lock_kind <> 0 AND \(spent)")
        )
        let failureEvent = AuditLog.recording(
            id: ":failure_event_id",
            kind: ":failure_event_kind",
            outcome: "'failure'",
            session: "NULL",
            when: ":holds = 0 AND :failure_event_kind IS NOT NULL AND \(spent)"
        )
        let confirmationFailure = step("confirmation_failed", ConfirmationTable.failing(when: ":holds = 0 AND \(spent)"))
        return (locks ? [lock] : []) + (confirmation ? [confirmationFailure] : []) + [
            step("tally", AuditLog.counting(outcome: "'failure'", when: ":holds = 0 AND :subject <> '' AND \(spent)")),
            step("failure_event", failureEvent),
            step("account_row", UserTable.readingAccount(when: ":holds = 1 AND \(spent)", lock: "FOR KEY SHARE")),
            "account AS (SELECT * FROM account_row WHERE state = '\(AccountStateSQL.current)')",
        ]
    }

    /// The credential's use, recorded if it is still current: `used` has a row then.
    private static func using(_ factor: AuthenticationMethod) -> [String] {
        let accountRead = "EXISTS (SELECT 1 FROM account)"
        switch factor {
        case .biometric, .pin:
            return [step("used_key", RegistrationTable.markingUsed(when: accountRead)), "used AS (SELECT user_id FROM used_key)"]
        case .passkey:
            return [step("used_passkey", PasskeyTable.markingUsed(when: accountRead)), "used AS (SELECT user_id FROM used_passkey)"]
        default:
            // A one-time password is current only if this completion spends it: of two racing
            // sign-ins with it, the second's UPDATE waits for the first's and then finds it spent.
            return [
                step("spent_password", UserTable.spendingOneTimePassword(when: accountRead)),
                "used AS (SELECT id AS user_id FROM account WHERE password_change_required = 0 UNION ALL SELECT id FROM spent_password)",
            ]
        }
    }

    /// What a success makes for `purpose` (a session, a renewal, nothing), and its event.
    private static func succeeding(_ purpose: PurposeKind, when used: String) -> [String] {
        switch purpose {
        case .signIn:
            let insert = SessionTable.inserting(
                userID: "account.id",
                passwordChangeRequired: "account.password_change_required",
                from: "FROM account",
                when: used
            )
            return [step("session", insert), step("event", successEvent(session: "session.id", from: "FROM session"))]
        case .renewal:
            return [step("session", SessionTable.renewing(when: used)), step("event", successEvent(session: "session.id", from: "FROM session"))]
        case .record:
            return [step("approved", ConfirmationTable.approving(when: used)), step("event", successEvent(session: "NULL", from: "FROM approved"))]
        }
    }

    /// The success's audit event, one for each row of `source`.
    private static func successEvent(session: String, from source: String) -> String {
        AuditLog.recording(id: ":event_id", kind: ":event_kind", outcome: "'success'", session: session, from: source, when: "true")
    }

    /// A `WITH` step named `name` running `statement`.
    private static func step(_ name: String, _ statement: String) -> String {
        "\(name) AS (\n\(statement))"
    }
}
