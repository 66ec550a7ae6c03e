import Foundation
import Logging
import Synchronization

/// The access-token signing keys every instance shares, as this instance last read them: kept in
/// memory (private halves opened once), read again from the database every
/// ``SigningKeySchedule/reloadInterval``, so a key another instance stored is served here within
/// that. Minting reads memory only, but for that one read a minute.
final class SigningKeyStore: Sendable {
    /// The keys as read, with the private halves this instance could open.
    struct Snapshot: Sendable {
        /// Every stored key, oldest generation first.
        var stored: [StoredSigningKey]
        /// The opened keys, by kid.
        var opened: [String: TokenSigningKey]
        /// When they were read, by this instance's clock.
        var readAt: Date
    }

    let database: any DatabaseProvider
    let wrap: SigningKeyWrap
    let time: TimeSource
    /// What new keys are made for.
    let algorithm: AccessTokenAlgorithm
    /// How long a key signs before the housekeeping adds the next.
    let rotation: Duration
    let logger: Logger
    private let snapshot = Mutex<Snapshot?>(nil)

    init(database: any DatabaseProvider, wrap: SigningKeyWrap, time: TimeSource, algorithm: AccessTokenAlgorithm, rotation: Duration, logger: Logger)
    {
        self.database = database
        self.wrap = wrap
        self.time = time
        self.algorithm = algorithm
        self.rotation = rotation
        self.logger = logger
    }

    /// The keys, read again when the copy in memory is ``SigningKeySchedule/reloadInterval`` old.
    func current() async throws -> Snapshot {
        let now = time.now()
        let interval = SigningKeySchedule.reloadInterval.timeInterval
        if let kept = snapshot.withLock({ $0 }), abs(now.timeIntervalSince(kept.readAt)) < interval { return kept }
        return try await reload(at: now)
    }

    /// Reads the keys now, opening the private halves not opened before.
    @discardableResult
    func reload(at now: Date? = nil) async throws -> Snapshot {
        let now = now ?? time.now()
        let stored = try await database.read { db in try await SigningKeyTable.all(db) }
        let known = snapshot.withLock { $0?.opened ?? [:] }
        var opened: [String: TokenSigningKey] = [:]
        for key in stored {
            if let key = known[key.kid] {
                opened[key.kid] = key
            } else if let key = open(key) {
                opened[key.kid] = key
            }
        }
        let fresh = Snapshot(stored: stored, opened: opened, readAt: now)
        snapshot.withLock { $0 = fresh }
        return fresh
    }

    /// The private half of a stored key, or `nil` (logged by kid) when no key of the file opens it.
    private func open(_ stored: StoredSigningKey) -> TokenSigningKey? {
        guard let algorithm = AccessTokenAlgorithm(rawValue: stored.algorithm),
            let raw = wrap.open(stored.sealedPrivateKey, keyID: stored.wrapKeyID, kid: stored.kid),
            let key = TokenSigningKey(algorithm: algorithm, raw: raw), key.kid == stored.kid
        else {
            logger.error(
                "a signing key cannot be opened with the signing key file; it is published but signs nothing",
                metadata: ["kid": "\(stored.kid)", "wrap_key_id": "\(stored.wrapKeyID)"]
            )
            return nil
        }
        return key
    }

    /// The key that signs now.
    func signer() async throws -> TokenSigningKey {
        let keys = try await current()
        guard let stored = SigningKeySchedule.signer(keys.stored, at: time.now()), let key = keys.opened[stored.kid] else {
            throw Rejection(.unavailable, "No signing key is available; try again later.", retryAfterSeconds: 60)
        }
        return key
    }

    /// Stores the next key when the schedule asks for one (no key signs, or the signing key has
    /// signed for ``rotation``), or, when `now` is set, unless a next key is already stored; the
    /// key stored, or `nil` when none was due or another instance stored it first.
    @discardableResult
    func rotate(force: Bool = false, algorithm chosen: AccessTokenAlgorithm? = nil) async throws -> StoredSigningKey? {
        let now = time.now()
        let key = TokenSigningKey(generating: chosen ?? algorithm)
        let sealed = try wrap.seal(key.privateRaw, kid: key.kid)
        let rotation = self.rotation
        let added = try await database.transaction { db -> StoredSigningKey? in
            let keys = try await SigningKeyTable.all(db)
            let activation: Date
            if force {
                guard SigningKeySchedule.pending(keys, at: now) == nil else { return nil }
                let lead = now.addingTimeInterval(SigningKeySchedule.publicationLead.timeInterval)
                activation = SigningKeySchedule.signer(keys, at: now) == nil ? now : lead
            } else {
                guard let due = SigningKeySchedule.nextActivation(keys, at: now, every: rotation) else { return nil }
                activation = due
            }
            return try await Self.insert(db, key, sealed: sealed, after: keys, now: now, activatesAt: activation)
        }
        if let added {
            logger.info("stored a new access-token signing key", metadata: ["kid": "\(added.kid)", "activates_at": "\(added.activatesAt)"])
        }
        try await reload(at: now)
        return added
    }

    /// Retires key `kid`: it signs no more, and leaves the set once every token it signed has
    /// expired. When it was the signing key, the next key signs at once: the one waiting if there
    /// is one (already in every cached set), else a new one (a verifier whose cached set lacks it
    /// fetches the set again for the unknown kid). Whether a key was retired, and its replacement.
    func retire(kid: String) async throws -> (retired: Bool, replacement: StoredSigningKey?) {
        let now = time.now()
        let key = TokenSigningKey(generating: algorithm)
        let sealed = try wrap.seal(key.privateRaw, kid: key.kid)
        let result = try await database.transaction { db -> (Bool, StoredSigningKey?) in
            let keys = try await SigningKeyTable.all(db)
            let signing = SigningKeySchedule.signer(keys, at: now)?.kid == kid
            guard try await SigningKeyTable.retire(db, kid: kid, now: now) else { return (false, nil) }
            guard signing else { return (true, nil) }
            if var waiting = SigningKeySchedule.pending(keys, at: now), try await SigningKeyTable.activate(db, kid: waiting.kid, at: now) {
                waiting.activatesAt = now
                return (true, waiting)
            }
            return (true, try await Self.insert(db, key, sealed: sealed, after: keys, now: now, activatesAt: now))
        }
        try await reload(at: now)
        return result
    }

    /// Stores `key` as the generation after `keys`' newest.
    private static func insert(
        _ db: any StatementDatabase,
        _ key: TokenSigningKey,
        sealed: (keyID: String, sealed: Data),
        after keys: [StoredSigningKey],
        now: Date,
        activatesAt: Date
    ) async throws -> StoredSigningKey? {
        let stored = StoredSigningKey(
            kid: key.kid,
            generation: (keys.map(\.generation).max() ?? 0) + 1,
            algorithm: key.algorithm.rawValue,
            publicKey: key.publicRaw,
            sealedPrivateKey: sealed.sealed,
            wrapKeyID: sealed.keyID,
            createdAt: now,
            activatesAt: activatesAt
        )
        return try await SigningKeyTable.insert(db, stored) ? stored : nil
    }
}
