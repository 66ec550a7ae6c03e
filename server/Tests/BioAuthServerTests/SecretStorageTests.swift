import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import Logging
import Synchronization
import Testing

@testable import BioAuthServer

/// A stolen database or log holds no usable secret.
@Suite("Secrets at rest and in logs")
struct SecretStorageTests {
    static let password = "Zebra-Secret-Password-7731"
    static let pin = "98127341"

    @Test("the database file and its WAL contain no raw token, password or PIN")
    func databaseHoldsNoRawSecrets() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp("secret-keeper", password: Self.password)
            var tokens: [String] = []
            for _ in 0..<3 { tokens.append(try await server.api.signIn(user.username, password: Self.password).sessionToken) }
            let pinDevice = try await server.api.setPIN(Self.pin, token: tokens[0])
            tokens.append(try await server.api.pinSignIn(pinDevice, pin: Self.pin).decode(SignInResponse.self).sessionToken)

            var bytes = Data()
            // Binary values as they appear in the store: raw in SQLite's files, hex in PostgreSQL's
            // text form of every row (the files of a PostgreSQL server are not ours to read).
            var binary: (Data) -> Data = { $0 }
            if TestDatabase.current == .postgres {
                let snapshot = try await server.snapshot()
                bytes = Data(snapshot.tables.values.flatMap { $0 }.joined(separator: "\n").utf8)
                binary = { Data($0.map { String(format: "%02x", $0) }.joined().utf8) }
            } else {
                for suffix in ["", "-wal", "-shm"] {
                    bytes += (try? Data(contentsOf: URL(fileURLWithPath: server.databasePath + suffix))) ?? Data()
                }
            }
            #expect(bytes.count > 0)
            var needles: [(String, Data)] = [("password", Data(Self.password.utf8)), ("PIN", Data(Self.pin.utf8))]
            for token in tokens {
                needles.append(("token text", Data(token.utf8)))
                needles.append(("token bytes", binary(Base64URL.decode(String(token.dropFirst(4)))!)))
            }
            for (name, needle) in needles {
                #expect(bytes.range(of: needle) == nil, "found the raw \(name) in the database files")
            }
            // What is there instead: the SHA-256 of each token.
            for token in tokens {
                #expect(bytes.range(of: binary(Data(SHA256.hash(data: Data(token.utf8))))) != nil)
            }
        }
    }

    @Test("passwords are stored as bcrypt at the configured cost")
    func passwordHashFormat() async throws {
        let hasher = PasswordHasher(cost: 5)
        let hash = try await hasher.hash(Self.password)
        #expect(hash.hasPrefix("bcrypt-sha256$$2b$05$"))
        #expect(try await hasher.verify(Self.password, against: hash))
        #expect(try await !hasher.verify(Self.password + "x", against: hash))
        #expect(try await !hasher.verify(Self.password, against: nil))
        // Characters past bcrypt's 72-byte window still count.
        let long = String(repeating: "é", count: 100)
        let longHash = try await hasher.hash(long)
        #expect(try await !hasher.verify(String(repeating: "é", count: 99) + "e", against: longHash))
        #expect(PasswordHasher.defaultCost >= 12)
    }

    /// Both databases: PostgreSQL's driver logs statements with their binds at `debug` and every
    /// protocol message at `trace`, rows included, unless it is kept above them.
    @Test("nothing logged, at any level, contains a password, PIN, token, token digest or stored hash")
    func logsHoldNoSecrets() async throws {
        let records = LogRecords()
        var logger = Logger(label: "bioauth-test", factory: { _ in RecordingLogHandler(records: records) })
        logger.logLevel = .trace
        let secrets = try await TestServer.run(logger: logger) { server in
            let user = try await server.api.signUp("logged-user", password: Self.password)
            let session = try await server.api.signIn(user.username, password: Self.password)
            let pinDevice = try await server.api.setPIN(Self.pin, token: session.sessionToken)
            try await server.api.pinSignIn(pinDevice, pin: Self.pin)
            try await server.api.pinSignIn(pinDevice, pin: "55501234")
            try await server.api.call(
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: Self.password + "!")
            )
            try await server.api.call(.post, "/v1/sessions/password", raw: Data(#"{"username": "x", "password": "\#(Self.password)"#.utf8))
            try await server.api.call(.get, "/v1/sessions/current", token: session.sessionToken)
            // What the rows hold: each stored hash (its bcrypt part alone too), each token digest.
            let stored = try await server.server.database.withDatabase { db in
                let hashes = try await db.raw(
                    "SELECT password_hash AS hash FROM users UNION ALL SELECT pin_hash AS hash FROM registrations WHERE pin_hash IS NOT NULL"
                )
                .all().map { try $0.decode(column: "hash", as: String.self) }
                let digests = try await db.raw("SELECT token_hash FROM sessions").all().map { try $0.decode(column: "token_hash", as: Data.self) }
                return (hashes, digests)
            }
            let digest = SessionToken.digest(of: session.sessionToken)
            return [session.sessionToken]
                + stored.0.flatMap { [$0, String($0.split(separator: "$").last ?? "")] }
                + (stored.1 + [digest]).flatMap {
                    [Hex.lowercase($0), Hex.lowercase($0).uppercased(), $0.base64EncodedString(), Base64URL.encode($0)]
                }
        }
        let logged = records.all.joined(separator: "\n")
        #expect(!logged.isEmpty, "the test must see some log lines")
        #expect(secrets.count > 10)
        for secret in [Self.password, Self.pin] + secrets {
            #expect(!logged.contains(secret), "a log line holds \(secret.prefix(6))…")
        }
    }
}

final class LogRecords: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append("\(event.level) \(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 }) \(event.error.map { "\($0)" } ?? "")")
    }
}
