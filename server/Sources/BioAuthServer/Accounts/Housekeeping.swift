import Foundation
import Logging

/// Keeps the tables bounded under sustained load: a periodic purge, run by every
/// instance (the deletes are idempotent, so several instances on one database do no harm).
///
/// What goes, and when:
/// - challenges once expired (they can never be answered);
/// - sessions that expired or were revoked more than ``retention`` ago (kept that long so an
///   operator can still look at them; they authenticate nothing meanwhile);
/// - pending registrations whose challenge has expired (they can never be verified; the client
///   starts a new registration), together with their challenges;
/// - the ids of spent authentication challenges, once expired by the database's clock with a
///   margin of ``spentChallengeMargin``: an instance whose clock runs behind still refuses a
///   replay, and one whose clock runs ahead forgets nothing another still accepts;
/// - failure counters idle for ``lockoutIdle`` (the audit retention, which the same failures'
///   counted rows are kept for), an account's and an unknown username's alike, so that whether a
///   username's counters were forgotten tells nobody whether it exists; a lock until cleared stays;
/// - audit events and counted failures older than ``auditRetention``.
///
/// It also stores the next access-token signing key when the schedule asks for one
/// (``SigningKeySchedule``).
///
/// Revoked registrations stay: their public keys must remain unusable for new registrations.
struct Housekeeping: Sendable {
    /// How long after a challenge's expiry (by the database's clock) its spent id is kept: the
    /// most the instances' clocks may run behind the database's.
    static let spentChallengeMargin: Duration = .seconds(5 * 60)

    let database: any DatabaseProvider
    let time: TimeSource
    /// The database's clock.
    let clock: DatabaseClock
    let challengeTTL: Duration
    let retention: Duration
    /// How long audit events and counted failures are kept.
    let auditRetention: Duration
    /// How long a username's failure counters are kept idle, with an account or without.
    let lockoutIdle: Duration
    /// The access-token signing keys, rotated on their schedule.
    let signingKeys: SigningKeyStore
    let logger: Logger

    /// How many rows one purge removed, by table.
    struct Report: Sendable, Equatable {
        var challenges = 0
        var sessions = 0
        var pendingRegistrations = 0
        var lockouts = 0
        var auditEvents = 0
        /// Confirmations past their expiry by more than the audit retention.
        var confirmations = 0
        /// The signing key stored by this purge's rotation, if one was due.
        var signingKeyAdded: String?
    }

    /// Removes everything that has outlived its use, as of now.
    @discardableResult
    func purge() async throws -> Report {
        let now = time.now().millisecondsSince1970
        let sessionCutoff = now - Int64(retention.timeInterval * 1000)
        let pendingCutoff = now - Int64(challengeTTL.timeInterval * 1000)
        let auditCutoff = now - Int64(auditRetention.timeInterval * 1000)
        let clock = self.clock
        let margin = Int64(Self.spentChallengeMargin.timeInterval * 1000)
        let lockoutIdle = Int64(self.lockoutIdle.timeInterval * 1000)
        var report = try await database.transaction { db in
            var report = Report()
            let databaseNow = try await clock.read(db)
            report.challenges =
                try await ChallengeTable.purgeExpired(db, now: now)
                + SpentChallengeTable.purgeExpired(db, now: databaseNow - margin)
                + WebAuthnChallengeTable.purgeExpired(db, now: now)
                + AttestationChallengeTable.purgeExpired(db, now: now)
            report.sessions = try await SessionTable.purge(db, endedBy: sessionCutoff)
            report.pendingRegistrations = try await RegistrationTable.purgePending(db, createdBy: pendingCutoff)
            report.lockouts = try await FactorFailureTable.purge(db, clock: clock, idle: lockoutIdle)
            report.auditEvents = try await AuditLog.purge(db, writtenBy: auditCutoff)
            report.confirmations = try await ConfirmationTable.purge(db, expiredBy: auditCutoff)
            return report
        }
        // Every instance tries; the key's unique generation lets exactly one store it.
        report.signingKeyAdded = try await signingKeys.rotate()?.kid
        return report
    }

    /// How many sessions are live now, for the metrics gauge: counted here, off the request path,
    /// so a scrape never scans a table (under SQLite's single writer, least of all).
    func liveSessions() async throws -> Int {
        let now = time.now()
        return try await database.read { db in try await SessionTable.liveCount(db, now: now) }
    }

    /// Counts the live sessions now, and then after every purge, every `interval` until
    /// cancelled; purges in between. A failure is logged and retried next time.
    func runPeriodically(every interval: Duration, metrics: ServerMetrics) async {
        if let live = try? await liveSessions() { metrics.setActiveSessions(live) }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            do {
                if let live = try? await liveSessions() { metrics.setActiveSessions(live) }
                let report = try await purge()
                logger.debug(
                    "purged expired rows",
                    metadata: [
                        "challenges": "\(report.challenges)", "sessions": "\(report.sessions)",
                        "pending_registrations": "\(report.pendingRegistrations)",
                        "lockouts": "\(report.lockouts)", "audit_events": "\(report.auditEvents)",
                        "confirmations": "\(report.confirmations)",
                    ]
                )
            } catch {
                logger.warning("purge failed; retrying at the next interval", metadata: ["error": "\(error)"])
            }
        }
    }
}

extension Housekeeping {
    /// The purge over `database` with `configuration`'s retentions and the challenge lifetime.
    init(
        configuration: ServerConfiguration,
        database: any DatabaseProvider,
        time: TimeSource,
        clock: DatabaseClock,
        signingKeys: SigningKeyStore,
        logger: Logger
    ) {
        self.init(
            database: database,
            time: time,
            clock: clock,
            challengeTTL: configuration.challengeTTL,
            retention: configuration.expiredSessionRetention,
            auditRetention: configuration.auditRetention,
            lockoutIdle: configuration.auditRetention,
            signingKeys: signingKeys,
            logger: logger
        )
    }
}
