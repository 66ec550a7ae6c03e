import BioAuthProtocol
import Crypto
import Foundation
import Logging
import SQLKit
import Testing

@testable import BioAuthServer

@Suite("Session tokens name their session")
struct SessionTokenTests {
    @Test("a token is bat_ and 64 base64url characters: its session's identifier bytes, then 256 random bits")
    func layout() throws {
        let idBytes = SecureRandom.identifierBytes()
        let sessionID = IdentifierPrefix.session.rawValue + Hex.lowercase(idBytes)
        let token = SessionToken.generate(sessionIDBytes: idBytes)
        #expect(token.text.hasPrefix("bat_"))
        #expect(token.text.count == 4 + 64)
        let bytes = try #require(Base64URL.decode(String(token.text.dropFirst(4))))
        #expect(bytes.prefix(16) == idBytes)
        #expect(SessionToken.lookup(token.text) == SessionToken.Lookup(id: sessionID, digest: token.digest))
        let secrets = Set((0..<1_000).map { _ in SessionToken.generate(sessionIDBytes: idBytes).text })
        #expect(secrets.count == 1_000, "the secret part differs for one session id")
    }

    @Test("text that is not bat_ and a session's identifier bytes with 256 bits needs no query")
    func lookups() {
        let token = SessionToken.generate(sessionIDBytes: SecureRandom.identifierBytes()).text
        for text in [
            "", "bat_", "bat_nope", "Bat_" + token.dropFirst(4), "bat_" + String(repeating: "A", count: 63),
            String(token.dropLast()), token + "A",
            "bat_" + token.dropFirst(4).replacingOccurrences(of: "A", with: "+").replacingOccurrences(of: "B", with: "/") + "+",
            "bat_" + Base64URL.encode(SecureRandom.bytes(32)), "bat_" + Base64URL.encode(SecureRandom.bytes(33)),
            token.replacingOccurrences(of: "bat_", with: "bat_ "),
        ] {
            #expect(SessionToken.lookup(text) == nil, "\(text)")
        }
    }

    @Test("a session's id with another secret, or another session's secret, is invalid_session; the real token works")
    func secretIsChecked() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let first = try await server.api.signIn(user.username)
            let second = try await server.api.signIn(user.username)
            let firstBytes = try #require(Base64URL.decode(String(first.sessionToken.dropFirst(4))))
            let secondBytes = try #require(Base64URL.decode(String(second.sessionToken.dropFirst(4))))
            let forgeries = [
                "bat_" + Base64URL.encode(firstBytes.prefix(16) + SecureRandom.bytes(32)),
                "bat_" + Base64URL.encode(firstBytes.prefix(16) + secondBytes.suffix(32)),
                "bat_" + Base64URL.encode(firstBytes.prefix(16) + Data(count: 32)),
            ]
            let before = try await server.snapshot()
            for forgery in forgeries {
                try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: forgery)
            }
            #expect(try await server.snapshot() == before, "a refused token changes nothing")
            let current = try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: first.sessionToken)
            #expect(current.session.id == first.session.id)
        }
    }

    @Test("sessions have no index of token digests")
    func noDigestIndex() async throws {
        try await TestServer.run { server in
            let indexes = try await server.server.database.withDatabase { db in
                try await Self.sessionIndexes(db, flavor: server.server.database.flavor)
            }
            let byDigest = indexes.filter { $0.columns.first == "token_hash" }
            #expect(byDigest.map(\.name) == [])
            #expect(indexes.contains { $0.columns.first == "user_id" }, "the catalog query sees the other indexes")
        }
    }

    /// An index on `sessions`: its name, its columns in order, and whether it covers only some rows.
    struct SessionIndex: Sendable {
        var name: String
        var columns: [String]
        var partial: Bool
    }

    /// The indexes on `sessions` from the database's own catalog, constraints' indexes included.
    static func sessionIndexes(_ db: any SQLDatabase, flavor: SQLFlavor) async throws -> [SessionIndex] {
        switch flavor {
        case .sqlite:
            var indexes: [SessionIndex] = []
            for row in try await db.raw("SELECT name, partial FROM pragma_index_list('sessions')").all() {
                let name = try row.decode(column: "name", as: String.self)
                let columns = try await db.raw("SELECT name FROM pragma_index_info(\(bind: name)) ORDER BY seqno").all()
                    .map { try $0.decode(column: "name", as: String.self) }
                indexes.append(SessionIndex(name: name, columns: columns, partial: try row.decode(column: "partial", as: Int.self) != 0))
            }
            return indexes
        case .postgres:
            return try await db.raw(
                """
                SELECT i.relname AS name, x.indpred IS NOT NULL AS partial,
                       array_to_string(ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
                                             JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.n), ',') AS columns
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                WHERE x.indrelid = 'sessions'::regclass
                """
            ).all().map { row in
                SessionIndex(
                    name: try row.decode(column: "name", as: String.self),
                    columns: try row.decode(column: "columns", as: String.self).split(separator: ",").map(String.init),
                    partial: try row.decode(column: "partial", as: Bool.self)
                )
            }
        }
    }
}
