import BioAuthProtocol
import Synchronization

/// Device keys remembered after their first use, so that answering a challenge does not read the
/// key again: one database round trip (PostgreSQL) or thread hop (SQLite) less per sign-in, and
/// no key parsed per request.
///
/// What it holds cannot go stale. A registration's owner, kind, public key and evidence's verdict
/// are written once, when it is started, and never changed; and a registration that an authentication challenge can
/// name was active when the challenge was issued, and an active registration is never deleted,
/// only revoked. Whether it is still active is not remembered: the completion's transaction checks
/// that. So every instance may keep its own copy.
///
/// Memory is bounded by two generations of at most `capacity` keys each: a key found in the older
/// generation moves to the newer one, and when the newer one is full it becomes the older one.
final class SigningKeyCache: Sendable {
    /// A registration's immutable signing material.
    struct Entry: Sendable {
        var userID: String
        var kind: RegistrationKind
        var key: DevicePublicKey
        /// Its hardware evidence verified when it was registered.
        var verified: Bool
    }

    private struct Generations {
        var current: [String: Entry] = [:]
        var previous: [String: Entry] = [:]
    }

    private let generations = Mutex(Generations())
    /// The most keys one generation holds.
    let capacity: Int

    /// A cache of at most two generations of `capacity` keys.
    init(capacity: Int = 10_000) {
        precondition(capacity > 0, "a cache needs room for one key")
        self.capacity = capacity
    }

    /// The remembered key of registration `id`, if any.
    func entry(for id: String) -> Entry? {
        generations.withLock { generations in
            if let entry = generations.current[id] { return entry }
            guard let entry = generations.previous.removeValue(forKey: id) else { return nil }
            Self.insert(entry, for: id, into: &generations, capacity: capacity)
            return entry
        }
    }

    /// Remembers registration `id`'s key.
    func remember(_ entry: Entry, for id: String) {
        generations.withLock { Self.insert(entry, for: id, into: &$0, capacity: capacity) }
    }

    /// How many keys are remembered (for tests).
    var count: Int {
        generations.withLock { $0.current.count + $0.previous.count }
    }

    private static func insert(_ entry: Entry, for id: String, into generations: inout Generations, capacity: Int) {
        if generations.current.count >= capacity {
            generations.previous = generations.current
            generations.current = [:]
        }
        generations.current[id] = entry
    }
}
