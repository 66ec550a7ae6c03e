import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// The access-token signing keys: stored once for the fleet, sealed at rest, published before
/// they sign and until every token they signed has expired, rotated on a schedule by exactly one
/// instance, and read by every instance within a minute. On the suite's database.
@Suite("Access-token signing keys")
struct SigningKeyTests {
    /// The `kid` of a token minted now for the session of `token`.
    private static func kid(_ server: TestServer, _ token: String) async throws -> String? {
        ParsedAccessToken(try await server.api.accessToken(token: token).accessToken)?.kid
    }

    @Test("a rotated key is in the set at once and signs only 360 s later; the key it replaces stays until every token it signed has expired")
    func rotationSchedule() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let first = try #require(try await Self.kid(server, account.sessionToken))
            let oldToken = try #require(ParsedAccessToken(try await server.api.accessToken(token: account.sessionToken).accessToken))
            let next = try #require(try await server.server.signingKeyAdministration.rotate())
            #expect(next.state == .next)
            #expect(try await server.api.keySetKids() == [first, next.kid])
            server.clock.advance(seconds: 359)
            #expect(try await Self.kid(server, account.sessionToken) == first)
            server.clock.advance(seconds: 1)
            #expect(try await Self.kid(server, account.sessionToken) == next.kid)
            server.clock.advance(seconds: 3_599)
            #expect(try await server.api.keySetKids().contains(first))
            #expect(oldToken.verifies(with: try await server.api.keySet()))
            server.clock.advance(seconds: 1)
            let after = try await server.api.keySetKids()
            #expect(!after.contains(first))
            #expect(try await server.server.signingKeyAdministration.list().first?.state == .expired)
        }
    }

    @Test("the housekeeping stores the next key once the signing key has signed its rotation period less the lead, and only once")
    func scheduledRotation() async throws {
        try await TestServer.run(configure: { $0.signingKeyRotation = .seconds(86_400) }) { server in
            let first = try await server.api.keySetKids()
            #expect(first.count == 1)
            server.clock.advance(seconds: 86_400 - 361)
            #expect(try await server.server.purge().signingKeyAdded == nil)
            server.clock.advance(seconds: 2)
            let added = try #require(try await server.server.purge().signingKeyAdded)
            #expect(try await server.server.purge().signingKeyAdded == nil)
            #expect(try await server.api.keySetKids() == first + [added])
            let listed = try await server.server.signingKeyAdministration.list()
            #expect(listed.map(\.state) == [.signing, .next])
            #expect(listed[1].activatesAt == server.clock.now.addingTimeInterval(360).roundedToMilliseconds)
        }
    }

    @Test("two instances on one database: a key one rotates is in the other's set within 60 s, and both sign with it once it activates")
    func fleetSeesRotation() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            try await TestServer.run(at: location) { a in
                try await TestServer.run(at: location) { b in
                    let first = try await a.api.keySetKids()
                    #expect(try await b.api.keySetKids() == first)
                    let next = try #require(try await a.server.signingKeyAdministration.rotate())
                    #expect(try await a.api.keySetKids() == first + [next.kid])
                    #expect(try await b.api.keySetKids() == first, "B serves the keys it read within the last minute")
                    b.clock.advance(seconds: 60)
                    #expect(try await b.api.keySetKids() == first + [next.kid])
                    a.clock.advance(seconds: 360)
                    b.clock.advance(seconds: 300)
                    let account = try await b.api.newAccount()
                    let fromB = try #require(ParsedAccessToken(try await b.api.accessToken(token: account.sessionToken).accessToken))
                    let fromA = try #require(ParsedAccessToken(try await a.api.accessToken(token: account.sessionToken).accessToken))
                    #expect(fromA.kid == next.kid && fromB.kid == next.kid)
                    let (setA, setB) = (try await a.api.keySet(), try await b.api.keySet())
                    #expect(fromB.verifies(with: setA) && fromA.verifies(with: setB))
                }
            }
        }
    }

    @Test("instances rotating at once store exactly one next key: its generation is unique")
    func concurrentRotationStoresOne() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let rotation: @Sendable (inout ServerConfiguration) -> Void = { $0.signingKeyRotation = .seconds(86_400) }
            try await TestServer.run(at: location, configure: rotation) { a in
                try await TestServer.run(at: location, configure: rotation) { b in
                    for server in [a, b] { server.clock.advance(seconds: 86_400) }
                    async let fromA = a.server.purge().signingKeyAdded
                    async let fromB = b.server.purge().signingKeyAdded
                    let added = [try await fromA, try await fromB].compactMap { $0 }
                    #expect(added.count == 1)
                    let stored = try await a.server.database.read { db in try await SigningKeyTable.all(db) }
                    #expect(stored.count == 2)
                    var sameGeneration = stored[1]
                    sameGeneration.kid = "another"
                    let copy = sameGeneration
                    let inserted = try await a.server.database.transaction { db in try await SigningKeyTable.insert(db, copy) }
                    #expect(!inserted)
                }
            }
        }
    }

    @Test(
        "the private half is stored sealed under the key file, bound to its kid: a server with another key file publishes the key but signs nothing (503)"
    )
    func privateHalfSealed() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let (kid, account) = try await TestServer.run(at: location) { server in
                let keys = try await server.server.services.accessTokens.keys.current()
                let stored = try #require(keys.stored.first)
                let raw = try #require(keys.opened[stored.kid]).privateRaw
                #expect(stored.sealedPrivateKey.range(of: raw) == nil)
                let snapshot = try await server.snapshot().description
                for form in [Hex.lowercase(raw), Base64URL.encode(raw), raw.base64EncodedString()] { #expect(!snapshot.contains(form)) }
                let wrap = server.server.policies.signingKeyWrap
                #expect(wrap.open(stored.sealedPrivateKey, keyID: stored.wrapKeyID, kid: stored.kid) == raw)
                #expect(wrap.open(stored.sealedPrivateKey, keyID: stored.wrapKeyID, kid: "another kid") == nil)
                return (stored.kid, try await server.api.newAccount())
            }
            let other = PINKeyRing(keys: [Data(repeating: 0x33, count: 32)])
            try await TestServer.run(at: location, pinKeys: other) { server in
                #expect(try await server.api.keySetKids() == [kid])
                try await server.api.expectError(.unavailable, .post, Endpoint.createAccessToken.path(), token: account.sessionToken)
            }
        }
    }

    @Test("retiring the signing key stops it at once, a new key signs, and the retired key leaves the set an hour later")
    func retireSigningKey() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let first = try #require(try await Self.kid(server, account.sessionToken))
            let administration = server.server.signingKeyAdministration
            server.clock.advance(seconds: 1)
            let retired = try await administration.retire(kid: first)
            let replacement = try #require(retired.replacement)
            #expect(retired.retired)
            #expect(try await Self.kid(server, account.sessionToken) == replacement)
            #expect(try await server.api.keySetKids() == [first, replacement])
            #expect(try await administration.retire(kid: first).retired == false)
            #expect(try await administration.retire(kid: "no-such-kid").retired == false)
            server.clock.advance(seconds: 3_600)
            #expect(try await server.api.keySetKids() == [replacement])
        }
    }

    @Test("bioauth admin signing-keys lists, rotates (once while a next key waits) and retires, on the server's database")
    func adminCommand() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let first = try await TestServer.run(at: location) { server in try await server.api.keySetKids() }
            func admin(_ arguments: [String]) async throws -> (Int32, String, String) {
                let process = try ServeCommandTests.launch(["admin", "signing-keys"] + arguments + ["--database", location])
                return (try await process.waitForExit(), process.stdout, process.stderr)
            }
            let list = try await admin(["list"])
            #expect(list.0 == 0 && list.1.hasPrefix("\(first[0]) ES256 signing created "), "\(list)")
            let rotate = try await admin(["rotate", "--access-token-algorithm", "EdDSA"])
            #expect(rotate.0 == 0 && rotate.1.contains(" EdDSA next created "), "\(rotate)")
            let again = try await admin(["rotate"])
            #expect(again.0 == 0 && again.1.contains("already stored"), "\(again)")
            let next = try #require(rotate.1.split(separator: " ").dropFirst().first.map(String.init))
            // The signing key retired: the key waiting signs at once.
            let retire = try await admin(["retire", first[0]])
            #expect(retire.0 == 0 && retire.1 == "retired \(first[0]); \(next) signs from now on\n", "\(retire)")
            let unknown = try await admin(["retire", "nothing"])
            #expect(unknown.0 == 1 && unknown.2.contains("no key nothing"), "\(unknown)")
            let states = try await admin(["list"]).1.split(separator: "\n").map { $0.split(separator: " ")[2] }
            #expect(states == ["draining", "signing"])
        }
    }

    @Test("a signing key file is created (0600) beside a SQLite server when missing; a PostgreSQL server refuses a missing one")
    func signingKeyFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.databasePath = folder.appendingPathComponent("db.sqlite").path
        configuration.signingKeyFile = folder.appendingPathComponent("signing-key").path
        let wrap = try ServerPolicies.signingKeyWrap(configuration, pinKeys: ThrowawayPINKey.ring)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("signing-key").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try ServerPolicies.signingKeyWrap(configuration, pinKeys: ThrowawayPINKey.ring).keys.map(\.id) == wrap.keys.map(\.id))
        #expect(wrap.keys.map(\.id) != SigningKeyWrap(derivedFrom: ThrowawayPINKey.ring).keys.map(\.id))
        configuration.databasePath = "postgres://nobody@127.0.0.1:1/none"
        configuration.signingKeyFile = folder.appendingPathComponent("missing").path
        #expect(throws: KeyFile.FileError.self) { _ = try ServerPolicies.signingKeyWrap(configuration, pinKeys: ThrowawayPINKey.ring) }
    }
}

extension Date {
    /// The time cut to whole milliseconds, as the server keeps it.
    var roundedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}
