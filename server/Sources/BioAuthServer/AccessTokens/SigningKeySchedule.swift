import Foundation

/// When each access-token signing key is in the key set and when it signs, worked out from the
/// stored keys and the time alone, so every instance that read the same rows agrees.
///
/// - A key is in the set from when it is stored. It starts signing ``publicationLead`` later: by
///   then every instance has read it (each reads the keys every ``reloadInterval``) and every
///   cached copy of the set (kept at most ``cachePeriod``) was fetched after that, so no verifier
///   meets a token whose key its cached set lacks.
/// - A key signs until the next key (by generation) starts, or until an operator retires it.
/// - A key that signed stays in the set ``AccessTokenAlgorithm/longestLifetime`` after it stopped,
///   until every token it signed has expired; then it leaves the set.
enum SigningKeySchedule {
    /// How long a key set may be cached (`Cache-Control: max-age`).
    static let cachePeriod: Duration = .seconds(300)
    /// How often each instance reads the keys again.
    static let reloadInterval: Duration = .seconds(60)
    /// How long a new key is in the set before it signs.
    static let publicationLead: Duration = cachePeriod + reloadInterval

    /// When `key` stops signing: the activation of the next key that activates while not retired,
    /// or its own retirement, whichever comes first; `nil` while neither is known.
    static func signingEnd(of key: StoredSigningKey, in keys: [StoredSigningKey]) -> Date? {
        let successor = keys.filter { other in other.generation > key.generation && (other.retiredAt.map { $0 > other.activatesAt } ?? true) }
            .min { $0.generation < $1.generation }?.activatesAt
        switch (successor, key.retiredAt) {
        case (let next?, let retired?): return min(next, retired)
        case (let next?, nil): return next
        case (nil, let retired?): return retired
        case (nil, nil): return nil
        }
    }

    /// The key that signs at `now`, if any.
    static func signer(_ keys: [StoredSigningKey], at now: Date) -> StoredSigningKey? {
        keys.filter { key in key.activatesAt <= now && (signingEnd(of: key, in: keys).map { now < $0 } ?? true) }
            .max { $0.generation < $1.generation }
    }

    /// The keys in the set at `now`, oldest generation first.
    static func published(_ keys: [StoredSigningKey], at now: Date) -> [StoredSigningKey] {
        let afterLife = AccessTokenAlgorithm.longestLifetime.timeInterval
        return keys.filter { key in
            guard key.createdAt <= now else { return false }
            guard let end = signingEnd(of: key, in: keys) else { return true }
            return now < end || (end >= key.activatesAt && now < end.addingTimeInterval(afterLife))
        }
    }

    /// A stored key, not retired, that starts signing after `now`: the next key, already published.
    static func pending(_ keys: [StoredSigningKey], at now: Date) -> StoredSigningKey? {
        keys.filter { key in
            key.activatesAt > now && key.retiredAt == nil && (signingEnd(of: key, in: keys).map { $0 > key.activatesAt } ?? true)
        }.max { $0.generation < $1.generation }
    }

    /// When the next key should start signing, if one should be stored now: at once when no key
    /// signs; otherwise when the signing key has signed for `period`, once that is less than
    /// ``publicationLead`` away (never sooner than the lead), unless a next key is already stored.
    static func nextActivation(_ keys: [StoredSigningKey], at now: Date, every period: Duration) -> Date? {
        guard let current = signer(keys, at: now) else { return now }
        guard pending(keys, at: now) == nil else { return nil }
        let due = current.activatesAt.addingTimeInterval(period.timeInterval)
        let earliest = now.addingTimeInterval(publicationLead.timeInterval)
        return due <= earliest ? max(due, earliest) : nil
    }
}
