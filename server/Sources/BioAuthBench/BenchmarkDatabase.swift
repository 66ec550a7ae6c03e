import BioAuthProtocol
import BioAuthServer
import BioAuthTesting
import Crypto
import Foundation
import Logging
import SQLKit

/// Direct access to a BioAuth database for `bioauth-dev bench`: seeding it with many accounts, and
/// measuring how fast it commits the transactions a biometric sign-in performs.
///
/// Nothing here is reachable over HTTP.
package struct BenchmarkDatabase: Sendable {
    private let server: AuthServer

    /// Opens (creating and migrating as needed) the database at `location`: a SQLite file, or a
    /// `postgres://` URL.
    static func open(_ location: String, maxConnections: Int = 20, logger: Logger) async throws -> BenchmarkDatabase {
        var configuration = ServerConfiguration()
        configuration.databasePath = location
        configuration.databaseMaxConnections = maxConnections
        // The probe measures commits, not the limit: its few registrations sign in far more
        // often than a real device may.
        configuration.challengesPerRegistrationPerMinute = .max
        // The PIN key of the bench's servers (ServerProcess), so that the access-token signing key
        // stored here is one they can open; no key file is needed.
        return BenchmarkDatabase(
            server: try await AuthServer.open(
                configuration: configuration,
                pinKeys: ThrowawayPINKey.ring,
                logger: logger
            )
        )
    }

    /// A new service credential's secret: the bank backend of the confirmation load.
    func serviceCredential() async throws -> String {
        try await server.serviceCredentialAdministration.create(name: "bench bank backend", webhookURL: nil).secret
    }

    /// Closes the database.
    func close() async throws {
        try await server.close()
    }

    /// Opens the database at `location`, runs `body` with it, and closes it, also when `body` throws.
    static func with<T: Sendable>(
        _ location: String,
        maxConnections: Int = 20,
        logger: Logger,
        _ body: (BenchmarkDatabase) async throws -> T
    ) async throws -> T {
        let database = try await open(location, maxConnections: maxConnections, logger: logger)
        do {
            let result = try await body(database)
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }

    private var database: any DatabaseProvider { server.database }
    private var flavor: SQLFlavor { server.database.flavor }

    // MARK: Seeding

    /// Adds `accounts` users, each with one active P-256 registration and one expired (but
    /// retained) session, in batches of one transaction each.
    ///
    /// The rows look like real ones: random identifiers, real and distinct public keys, random
    /// token hashes, one real password hash shared by all (nobody signs in as them; computing a million bcrypt
    /// hashes would take days).
    ///
    /// - Parameter progress: Called after each batch with the number of accounts added so far.
    func seed(accounts: Int, now: Date = Date(), progress: @Sendable (Int) -> Void = { _ in }) async throws {
        let passwordHash = try await PasswordHasher(cost: 10).hash("seeded account \(UUID())")
        let batch = 2_000
        var added = 0
        while added < accounts {
            let count = min(batch, accounts - added)
            let first = added
            try await database.transaction { db in
                _ = try await Self.insertAccounts(
                    db,
                    flavor: flavor,
                    count: count,
                    firstNumber: first,
                    passwordHash: passwordHash,
                    expiredSessions: true,
                    now: now
                )
            }
            added += count
            progress(added)
        }
    }

    /// Lets the database catch up on a bulk load, as a long-running one has: SQLite copies the
    /// WAL into the file and empties it; PostgreSQL vacuums and analyses the seeded tables and
    /// takes a checkpoint.
    ///
    /// Without this, the run after seeding a million accounts measures that catch-up (an
    /// autovacuum of a million fresh rows, a gigabyte of pages flushed) competing for the disk
    /// with the sign-ins' commits, not the database at that size.
    func settle() async throws {
        switch flavor {
        case .sqlite:
            _ = try await database.withDatabase { db in try await db.raw("PRAGMA wal_checkpoint(TRUNCATE)").all() }
        case .postgres:
            try await database.withDatabase { db in try await db.raw("VACUUM (ANALYZE) users, registrations, sessions").run() }
            // Needs a superuser or pg_checkpoint: scripts/bench's server is run by one; with
            // another, PostgreSQL's own checkpoint comes when it comes.
            try? await database.withDatabase { db in try await db.raw("CHECKPOINT").run() }
        }
    }

    /// Inserts `count` users with one active biometric registration each (and, if asked, one
    /// session that expired an hour ago); returns the registrations with their private keys.
    ///
    /// The values are written into the SQL text, not bound: binding goes through an `Encoder` per
    /// value, which made a million accounts take minutes. Every value is generated here (hex
    /// identifiers, fixed words, bytes as hex), so no quoting is needed.
    ///
    /// - Parameter numbered: Identifiers made from the account's number (``floorIdentifiers(_:)``)
    ///   instead of fresh ones, so that a script can name the accounts.
    static func insertAccounts(
        _ db: any SQLDatabase,
        flavor: SQLFlavor,
        count: Int,
        firstNumber: Int,
        passwordHash: String,
        expiredSessions: Bool,
        now: Date,
        numbered: Bool = false
    ) async throws -> [SeededRegistration] {
        precondition(!passwordHash.contains("'"))
        let created = now.addingTimeInterval(-7_200).millisecondsSince1970
        let expired = now.addingTimeInterval(-3_600).millisecondsSince1970
        let identifiers = (0..<count).map { index in
            numbered
                ? floorIdentifiers(firstNumber + index + 1)
                : (user: SecureRandom.identifier(.user), registration: SecureRandom.identifier(.registration))
        }
        let userIDs = identifiers.map(\.user)
        let registrationIDs = identifiers.map(\.registration)
        var seeded: [SeededRegistration] = []
        seeded.reserveCapacity(count)
        func bytes(_ data: Data) -> String {
            flavor == .sqlite ? "X'\(Hex.lowercase(data))'" : "'\\x\(Hex.lowercase(data))'::bytea"
        }
        for chunk in stride(from: 0, to: count, by: 500).map({ $0..<min($0 + 500, count) }) {
            var users: [String] = []
            var registrations: [String] = []
            var sessions: [String] = []
            for index in chunk {
                let user = userIDs[index]
                let username = "seeded-\(firstNumber + index)-\(user.suffix(8))"
                let key = SoftwareDeviceKey.es256()
                seeded.append(SeededRegistration(id: registrationIDs[index], key: key))
                users.append("('\(user)', '\(username)', '\(username)', '\(username)', '\(passwordHash)', \(created))")
                registrations.append(
                    "('\(registrationIDs[index])', '\(user)', 'biometric', '\(SignatureAlgorithm.es256.rawValue)', "
                        + "\(bytes(key.publicKey())), '', 'active', \(created))"
                )
                let password = AuthenticationMethod.password.rawValue
                sessions.append(
                    "('\(SecureRandom.identifier(.session))', '\(user)', \(bytes(SecureRandom.bytes(32))), "
                        + "'\(password)', '\(password)', \(created), \(expired), \(created))"
                )
            }
            try await db.raw(
                SQLQueryString(
                    "INSERT INTO users (id, username, username_key, username_skeleton, password_hash, created_at) VALUES "
                        + users.joined(separator: ", ")
                )
            ).run()
            try await db.raw(
                SQLQueryString(
                    "INSERT INTO registrations (id, user_id, kind, algorithm, public_key, label, status, created_at) VALUES "
                        + registrations.joined(separator: ", ")
                )
            ).run()
            if expiredSessions {
                try await db.raw(
                    SQLQueryString(
                        "INSERT INTO sessions (id, user_id, token_hash, method, factors, created_at, expires_at, authenticated_at) VALUES "
                            + sessions.joined(separator: ", ")
                    )
                ).run()
            }
        }
        return seeded
    }

    /// A seeded biometric registration and the private key it registered.
    struct SeededRegistration: Sendable {
        var id: String
        var key: SoftwareDeviceKey
    }

    /// The identifiers of account number `number` (from 1) of a floor probe: the prefix and the
    /// number in 32 hex digits, as the floor's pgbench script writes them.
    static func floorIdentifiers(_ number: Int) -> (user: String, registration: String) {
        let digits = String(number, radix: 16)
        let padded = String(repeating: "0", count: max(0, 32 - digits.count)) + digits
        return ("usr_" + padded, "reg_" + padded)
    }

    /// Adds accounts 1 to `count` with ``floorIdentifiers(_:)``, for a floor probe; returns them.
    func seedFloorAccounts(count: Int) async throws -> [(user: String, registration: String)] {
        try await database.transaction { [flavor] db in
            _ = try await Self.insertAccounts(
                db,
                flavor: flavor,
                count: count,
                firstNumber: 0,
                passwordHash: "unused",
                expiredSessions: false,
                now: Date(),
                numbered: true
            )
        }
        return (1...count).map(Self.floorIdentifiers)
    }

    // MARK: The commit probe

    /// What ``signInCommitRate(workers:duration:)`` measured.
    package struct CommitRate: Codable, Sendable {
        /// Sign-ins whose transactions all committed within the measured time.
        package var signIns: Int
        /// The measured time.
        package var seconds: Double
        /// Sign-ins per second.
        package var signInsPerSecond: Double { seconds > 0 ? Double(signIns) / seconds : 0 }
    }

    /// Runs complete biometric sign-ins — issue a challenge, sign it, read it back, verify the
    /// signature, spend the challenge and create the session — from `workers` concurrent tasks for
    /// `duration`, with the services and transactions the server uses but no HTTP.
    ///
    /// The result is the database's ceiling for biometric sign-ins on this machine, with the one
    /// signature each needs made and checked on the same cores.
    func signInCommitRate(workers: Int, duration: Duration) async throws -> CommitRate {
        let registrations = try await database.transaction { db in
            try await Self.insertAccounts(
                db,
                flavor: flavor,
                count: workers,
                firstNumber: 0,
                passwordHash: "unused",
                expiredSessions: false,
                now: Date()
            )
        }
        let biometrics = server.biometricService
        let relyingPartyID = server.configuration.relyingPartyID
        let count = try await RateProbe.count(tasks: registrations.count, for: duration) { task in
            let registration = registrations[task]
            let challenge = try await biometrics.createChallenge(CreateChallengeRequest(registrationID: registration.id))
            let signature = registration.key.sign(
                .authentication,
                rpID: relyingPartyID,
                registrationID: registration.id,
                challenge: challenge.challenge.data
            )
            _ = try await biometrics.signIn(BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature))
            return 1
        }
        return CommitRate(signIns: count.operations, seconds: count.seconds)
    }
}
