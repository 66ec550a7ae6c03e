import BioAuthProtocol
import Foundation

/// The operator's view of the access-token signing keys (`bioauth admin signing-keys`): list
/// them with where each stands, rotate (store the next key, which signs once the publication lead
/// has passed), retire one (it signs no more; a retired signing key is replaced at once).
package struct SigningKeyAdministration: Sendable {
    let keys: SigningKeyStore

    /// Where a key stands now.
    package enum State: String, Sendable {
        /// In the set, not signing yet.
        case next
        /// Signing.
        case signing
        /// Replaced or retired, in the set until every token it signed has expired.
        case draining
        /// Out of the set.
        case expired
    }

    /// One key as `list` shows it.
    package struct Listed: Sendable, CustomStringConvertible {
        /// The key id.
        package var kid: String
        /// `ES256` or `EdDSA`.
        package var algorithm: String
        /// Where it stands.
        package var state: State
        /// When it was stored (and published).
        package var createdAt: Date
        /// When it starts (or started) signing.
        package var activatesAt: Date
        /// When an operator retired it, if one did.
        package var retiredAt: Date?

        /// `kid ES256 signing created … activates … [retired …]`.
        package var description: String {
            let times =
                "created \(WireJSON.formatTimestamp(createdAt)) activates \(WireJSON.formatTimestamp(activatesAt))"
                + (retiredAt.map { " retired \(WireJSON.formatTimestamp($0))" } ?? "")
            return "\(kid) \(algorithm) \(state.rawValue) \(times)"
        }
    }

    /// Every stored key, oldest first, as of now.
    package func list() async throws -> [Listed] {
        let stored = try await keys.reload().stored
        let now = keys.time.now()
        let signer = SigningKeySchedule.signer(stored, at: now)?.kid
        let published = Set(SigningKeySchedule.published(stored, at: now).map(\.kid))
        return stored.map { key in
            let state: State =
                key.kid == signer
                ? .signing : !published.contains(key.kid) ? .expired : key.activatesAt > now && key.retiredAt == nil ? .next : .draining
            return Listed(
                kid: key.kid,
                algorithm: key.algorithm,
                state: state,
                createdAt: key.createdAt,
                activatesAt: key.activatesAt,
                retiredAt: key.retiredAt
            )
        }
    }

    /// Stores the next key (of `algorithm`, or the configured one); `nil` when a next key is
    /// already stored and waiting.
    package func rotate(algorithm: AccessTokenAlgorithm? = nil) async throws -> Listed? {
        guard let added = try await keys.rotate(force: true, algorithm: algorithm) else { return nil }
        return try await list().first { $0.kid == added.kid }
    }

    /// Retires key `kid`; the replacement stored when it was the signing key.
    package func retire(kid: String) async throws -> (retired: Bool, replacement: String?) {
        let result = try await keys.retire(kid: kid)
        return (result.retired, result.replacement?.kid)
    }

    /// Closes the database.
    package func close() async throws {
        try await keys.database.shutdown()
    }
}
