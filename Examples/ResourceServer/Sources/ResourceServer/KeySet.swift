import Foundation
import JWTKit
import Logging

/// BioAuth's signing keys as this backend last fetched them: kept for the key set's `max-age`,
/// fetched again when that runs out or when a token names a `kid` the set lacks (BioAuth rotated),
/// but never more often than once per `refetchInterval`, so that made-up key ids cannot turn this
/// backend into a flood of requests to BioAuth. A failed fetch keeps the keys it had.
actor KeySet {
    /// A key a token may be verified with.
    struct Key: Sendable {
        /// The only algorithm this key verifies (`ES256` or `EdDSA`).
        var algorithm: String
        /// jwt-kit's collection that holds it, under its `kid`.
        var collection: JWTKeyCollection
    }

    /// The algorithms this backend accepts. Never `none`, never an HMAC (`HS256` with the public key
    /// as the secret is the classic key-confusion forgery), never what BioAuth does not sign with.
    static let allowedAlgorithms: Set<String> = ["ES256", "EdDSA"]

    private let fetcher: KeySetFetcher
    private let refetchInterval: TimeInterval
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private var keys: [String: Key] = [:]
    private var freshUntil = Date.distantPast
    private var lastFetch = Date.distantPast
    private var inFlight: Task<Void, Never>?

    /// A key set fetched by `fetcher` on first use.
    init(fetcher: KeySetFetcher, refetchInterval: TimeInterval, logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.fetcher = fetcher
        self.refetchInterval = refetchInterval
        self.logger = logger
        self.clock = clock
    }

    /// The key with this `kid`, fetching the set first if it is stale or lacks the kid and the
    /// last fetch is at least `refetchInterval` old; nil if the set has no such key.
    func key(for kid: String) async -> Key? {
        if let inFlight { await inFlight.value }
        let now = clock()
        let wanted = now >= freshUntil || keys[kid] == nil
        if wanted && now.timeIntervalSince(lastFetch) >= refetchInterval {
            lastFetch = now
            let fetch = Task { await self.fetch() }
            inFlight = fetch
            await fetch.value
            inFlight = nil
        }
        return keys[kid]
    }

    private func fetch() async {
        do {
            let fetched = try await fetcher.fetch()
            keys = try await Self.keys(of: fetched.keySet)
            freshUntil = clock().addingTimeInterval(fetched.maxAge)
            logger.info("fetched the key set", metadata: ["kids": "\(keys.keys.sorted())", "max_age": "\(fetched.maxAge)"])
        } catch {
            logger.warning("could not fetch the key set; keeping the keys already known", metadata: ["error": "\(error)"])
        }
    }

    /// The set's keys of an allowed algorithm, each bound to that algorithm: a key that does not
    /// say its `alg` gets the one its type and curve imply, never one a token's header names.
    private static func keys(of keySet: JWKS) async throws -> [String: Key] {
        let collection = JWTKeyCollection()
        var keys: [String: Key] = [:]
        for var jwk in keySet.keys {
            guard let kid = jwk.keyIdentifier?.string, let algorithm = algorithm(of: jwk), allowedAlgorithms.contains(algorithm) else {
                continue
            }
            jwk.algorithm = JWK.Algorithm(rawValue: algorithm)
            // Never a default key: jwt-kit verifies a token whose kid it lacks with the default one.
            try await collection.add(jwk: jwk, isDefault: false)
            keys[kid] = Key(algorithm: algorithm, collection: collection)
        }
        return keys
    }

    private static func algorithm(of jwk: JWK) -> String? {
        if let stated = jwk.algorithm { return stated.rawValue }
        switch (jwk.keyType, jwk.curve?.rawValue) {
        case (.ecdsa, "P-256"): return "ES256"
        case (.octetKeyPair, "Ed25519"): return "EdDSA"
        default: return nil
        }
    }
}
