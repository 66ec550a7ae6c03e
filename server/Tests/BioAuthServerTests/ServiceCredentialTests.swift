import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import Logging
import Testing

@testable import BioAuthServer

/// A bank backend's service credential: shown once, stored only as its SHA-256, refused once
/// revoked; it opens `/v1/service/…` and nothing else, and a user's session never opens those.
@Suite("Service credentials")
struct ServiceCredentialTests {
    @Test("a service credential is shown once and stored only as its SHA-256; list never shows it")
    func storedHashed() async throws {
        try await TestServer.run { server in
            let administration = server.server.serviceCredentialAdministration
            let made = try await administration.create(name: "bank", webhookURL: "https://bank.example/hooks")
            #expect(made.secret.hasPrefix("bsc_"))
            let rows = try await server.snapshot().tables["service_credentials", default: []]
            #expect(rows.count == 1)
            #expect(!rows.joined().contains(String(made.secret.dropFirst(4))), "the secret is not stored")
            let digest = Data(SHA256.hash(data: Data(made.secret.utf8)))
            let stored = try await server.server.database.read { db in
                try await ServiceCredentialTable.live(db, SessionToken.Lookup(id: made.credential.id, digest: digest))
            }
            #expect(stored?.id == made.credential.id, "its SHA-256 is")
            let listed = try await administration.list()
            #expect(listed == [made.credential])
            #expect(!listed.map(\.description).joined().contains(String(made.secret.dropFirst(4))))
            _ = try await server.confirmation(for: try await server.api.newAccount().user.id, credential: made.secret)
        }
    }

    @Test("a revoked service credential is refused: 401 invalid_service_credential")
    func revokedRefused() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let made = try await server.server.serviceCredentialAdministration.create(name: "bank", webhookURL: nil)
            let confirmation = try await server.confirmation(for: account.user.id, credential: made.secret)
            _ = try await server.server.serviceCredentialAdministration.revoke(id: made.credential.id)
            let before = try await server.snapshot()
            let body = CreateConfirmationRequest(userID: account.user.id, details: examplePayment)
            try await server.api.expectError(.invalidServiceCredential, .post, Endpoint.createConfirmation.path(), json: body, token: made.secret)
            try await server.api.expectError(
                .invalidServiceCredential,
                .get,
                Endpoint.getConfirmation.path(confirmation.id),
                token: made.secret
            )
            #expect(try await server.snapshot() == before)
            await #expect(throws: ServiceCredentialAdministration.Failure.self) {
                try await server.server.serviceCredentialAdministration.revoke(id: made.credential.id)
            }
        }
    }

    @Test("a session token is refused on service routes, and a service credential on session routes")
    func neitherPassesForTheOther() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let body = CreateConfirmationRequest(userID: account.user.id, details: examplePayment)
            let path = Endpoint.createConfirmation.path()
            try await server.api.expectError(.invalidServiceCredential, .post, path, json: body, token: account.sessionToken)
            try await server.api.expectError(.invalidServiceCredential, .post, path, json: body)
            try await server.api.expectError(.invalidSession, .get, Endpoint.listConfirmations.path(), token: credential)
            try await server.api.expectError(.invalidSession, .get, Endpoint.getCurrentSession.path(), token: credential)
            #expect(try await server.snapshot().tables["confirmations", default: []].isEmpty)
        }
    }

    @Test("a service credential reads only its own confirmations: another's is 404 not_found")
    func readsOnlyItsOwn() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let mine = try await server.serviceCredential()
            let confirmation = try await server.confirmation(for: account.user.id, credential: mine)
            #expect(try await server.api.serviceRead(confirmation.id, credential: mine) == confirmation)
            let theirs = try await server.serviceCredential(name: "another bank")
            try await server.api.expectError(.notFound, .get, Endpoint.getConfirmation.path(confirmation.id), token: theirs)
        }
    }

    @Test("bioauth admin service-credentials creates (secret printed once), lists (never the secret) and revokes, on the server's database")
    func adminCommand() async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            func admin(_ arguments: [String]) async throws -> (Int32, String, String) {
                let process = try ServeCommandTests.launch(["admin", "service-credentials"] + arguments + ["--database", location])
                return (try await process.waitForExit(), process.stdout, process.stderr)
            }
            let create = try await admin(["create", "--name", "payments", "--webhook-url", "https://bank.example/hook"])
            #expect(create.0 == 0 && create.1.hasPrefix("created svc_"), "\(create)")
            let secret = try #require(create.1.split(separator: " ").last.map { $0.trimmingCharacters(in: .newlines) })
            let id = try #require(create.1.split(separator: " ").dropFirst().first.map(String.init))
            #expect(secret.hasPrefix("bsc_"))
            let list = try await admin(["list"])
            #expect(
                list.0 == 0 && list.1.hasPrefix("\(id) payments webhook https://bank.example/hook created ") && !list.1.contains(secret),
                "\(list)"
            )
            let refused = try await admin(["create", "--name", "x", "--webhook-url", "http://bank.example/hook"])
            #expect(refused.0 == 1 && refused.2.contains("--webhook-url"), "\(refused)")
            try await TestServer.run(at: location) { server in
                _ = try await server.confirmation(for: try await server.api.newAccount().user.id, credential: secret)
            }
            let revoke = try await admin(["revoke", id])
            #expect(revoke.0 == 0 && revoke.1.hasPrefix("revoked \(id) payments"), "\(revoke)")
            #expect(try await admin(["revoke", id]).0 == 1)
            try await TestServer.run(at: location) { server in
                let body = CreateConfirmationRequest(userID: try await server.api.newAccount().user.id, details: examplePayment)
                try await server.api.expectError(.invalidServiceCredential, .post, Endpoint.createConfirmation.path(), json: body, token: secret)
            }
        }
    }

    @Test("no log line, at any level, holds a service credential or a receipt, refused or not")
    func logsHoldNoCredential() async throws {
        let records = LogRecords()
        var logger = Logger(label: "bioauth-test", factory: { _ in RecordingLogHandler(records: records) })
        logger.logLevel = .trace
        let secrets = try await TestServer.run(logger: logger) { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let made = try await server.server.serviceCredentialAdministration.create(name: "bank", webhookURL: nil)
            let confirmation = try await server.confirmation(for: account.user.id, credential: made.secret)
            let (body, _) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            let approved = try await server.api.approve(confirmation.id, body, token: account.sessionToken).decode(BioAuthProtocol.Confirmation.self)
            _ = try await server.server.serviceCredentialAdministration.revoke(id: made.credential.id)
            try await server.api.call(.get, Endpoint.getConfirmation.path(confirmation.id), token: made.secret)
            return [made.secret, String(made.secret.dropFirst(4)), try #require(approved.receipt)]
        }
        let logged = records.all.joined(separator: "\n")
        #expect(!logged.isEmpty, "the test must see some log lines")
        for secret in secrets {
            #expect(!logged.contains(secret), "a log line holds \(secret.prefix(6))…")
        }
    }

    @Test(
        "a webhook URL is https, or http only to this machine",
        arguments: [
            ("https://bank.example/hooks?x=1", true), ("http://127.0.0.1:9000/hook", true), ("http://localhost/h", true),
            ("http://[::1]:8/h", true), ("http://bank.example/hook", false), ("ftp://bank.example/", false), ("https://", false),
            ("https://user@bank.example/", false), ("bank.example/hook", false),
        ]
    )
    func webhookURL(url: String, accepted: Bool) async throws {
        #expect(WebhookURL.isAcceptable(url) == accepted)
    }
}
