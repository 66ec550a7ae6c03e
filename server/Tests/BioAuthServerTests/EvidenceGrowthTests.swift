import BioAuthAttestation
import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// No account grows the database without bound through hardware evidence: refused evidence keeps
/// only its verdict, kept evidence is capped and dropped when its registration is revoked, and a
/// refusal is counted in the activity, not written whole.
@Suite("Evidence does not grow the database")
struct EvidenceGrowthTests {
    @Test("200 registrations started with refused, oversized evidence and deleted grow the database by under 1 MB")
    func startAndDeleteCycles() async throws {
        try await TestServer.run(
            appAttestRoots: [KeyAttestationTests.apple.root],
            configure: { configuration in
                configuration.keyAttestation = .prefer
                configuration.androidAllowedApps = [KeyAttestationTests.app.description]
                configuration.androidAttestationRootsFile = KeyAttestationTests.rootsFile
                configuration.requestsPerMinutePerAddress = 100_000
            }
        ) { server in
            let token = try await server.api.newAccount().sessionToken
            // Well-formed JSON the server reads as android-key, refused as malformed: about 40 KiB each.
            let junk = Data(repeating: 0x30, count: 20_000)
            let before = try await Self.databaseBytes(server)
            for _ in 0..<200 {
                let challenge = try await server.api.attestationChallenge(token: token).challenge
                let evidence = KeyAttestationEvidence.androidKey(challenge: challenge.data, chain: [junk, junk])
                let start = try await server.api.startRegistration(.es256(), token: token, keyAttestation: evidence)
                let deleted = try await server.api.call(.delete, Endpoint.deleteRegistration.path(start.registrationID), token: token)
                #expect(deleted.status == .noContent)
            }
            let grown = try await Self.databaseBytes(server) - before
            #expect(grown < 1_000_000, "the database grew \(grown) bytes")
            let counted = try await server.server.database.read { db in
                try await db.first("SELECT count FROM audit_tallies WHERE type = $1", .text(AuditEvent.Kind.keyAttestationRefused.rawValue))
            }
            #expect(try counted?.integer(0) == 200, "the refusals are counted in one row")
        }
    }

    @Test("kept evidence is dropped when its registration is revoked")
    func revokedDropsEvidence() async throws {
        try await KeyAttestationTests.run(.prefer) { server in
            let token = try await server.api.newAccount().sessionToken
            let key = SoftwareDeviceKey.es256()
            let evidence = try await KeyAttestationTests.androidEvidence(server, key: key, token: token)
            let start = try await server.api.startRegistration(key, token: token, keyAttestation: evidence)
            let kept = { try await server.server.database.read { db in try await RegistrationTable.evidence(db, id: start.registrationID) } }
            #expect(try await kept() != nil, "verified evidence is kept with its registration")
            try await server.api.call(.delete, Endpoint.deleteRegistration.path(start.registrationID), token: token)
            #expect(try await kept() == nil, "and dropped with it")
        }
    }

    /// The database's size: SQLite's pages (the write-ahead log's included), PostgreSQL's files.
    private static func databaseBytes(_ server: TestServer) async throws -> Int64 {
        try await server.server.database.read { db in
            let sql =
                db.dialect.name == "postgresql"
                ? "SELECT pg_database_size(current_database())"
                : "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
            return try #require(try await db.first(sql)).integer(0)
        }
    }
}
