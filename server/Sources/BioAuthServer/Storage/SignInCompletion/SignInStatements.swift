/// The statements of a sign-in, as the benchmark's database floors run them.
package enum SignInStatements {
    /// What a biometric sign-in runs, statement by statement, as SQLite runs it
    /// (``SignInCompletion/runStatements(_:)``), with parameters named: the challenge's read of its registration and
    /// owner's epoch, then, in one transaction, the completion's spent id, the account and its state
    /// (read with `accountLock`: PostgreSQL's completion takes `FOR KEY SHARE`), the key's use, the
    /// session and the audit event. The benchmark's database floors run these texts, so they measure
    /// the statements the server runs.
    package static func biometric(accountLock: String = "") -> (challenge: NamedSQL, completion: [NamedSQL]) {
        (
            RegistrationTable.ActiveOwnerEpoch.statement,
            [
                SpentChallengeTable.spend, NamedSQL(UserTable.readingAccount(when: "true", lock: accountLock)), RegistrationTable.markUsed,
                SessionTable.insert, AuditLog.record,
            ]
        )
    }
}
