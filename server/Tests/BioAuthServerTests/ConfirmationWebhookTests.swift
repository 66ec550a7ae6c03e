import BioAuthProtocol
import BioAuthTesting
import Foundation
import Logging
import Testing

@testable import BioAuthServer

/// The webhook (docs/protocol/CONFIRMATIONS.md, "Webhook"): a decided confirmation is posted to
/// its service credential's URL as a `bioauth-event+jwt` the key set verifies, at least once, in
/// the background. The backend is a Hummingbird server on loopback (``WebhookReceiver``).
@Suite("Confirmation webhook")
struct ConfirmationWebhookTests {
    /// An account with a biometric key, and a backend's credential whose webhook is `url`.
    struct Setup {
        var account: SignInResponse
        var key: SoftwareDeviceKey
        var registration: Registration
        var credential: String
    }

    static func setUp(_ server: TestServer, webhook url: String) async throws -> Setup {
        let (account, key, registration) = try await server.api.newAccountWithKey()
        let credential = try await server.serviceCredential(webhookURL: url)
        return Setup(account: account, key: key, registration: registration, credential: credential)
    }

    /// Approves `confirmation` with `setup`'s key.
    static func approve(_ server: TestServer, _ setup: Setup, _ confirmation: BioAuthProtocol.Confirmation) async throws {
        let (body, _) = try await server.api.signedApproval(confirmation, key: setup.key, registrationID: setup.registration.id)
        #expect(try await server.api.approve(confirmation.id, body, token: setup.account.sessionToken).status == .ok)
    }

    /// An approval of `confirmation` signed by `forger`, refused as `signature_invalid`.
    static func forge(_ server: TestServer, _ setup: Setup, _ confirmation: BioAuthProtocol.Confirmation, with forger: SoftwareDeviceKey) async throws
    {
        let (body, _) = try await server.api.signedApproval(confirmation, key: forger, registrationID: setup.registration.id)
        let path = Endpoint.approveConfirmation.path(confirmation.id)
        try await server.api.expectError(.signatureInvalid, .post, path, json: body, token: setup.account.sessionToken)
    }

    /// The event in `received`, checked against the server's key set: a compact JWS with
    /// `typ` `bioauth-event+jwt` posted as `application/jwt`.
    static func event(_ received: WebhookReceiver.Received, _ server: TestServer) async throws -> ParsedAccessToken {
        #expect(received.contentType == "application/jwt")
        let event = try #require(ParsedAccessToken(received.body))
        #expect(event.header["typ"] as? String == "bioauth-event+jwt")
        #expect(event.verifies(with: try await server.api.keySet()), "the key set verifies the event")
        return event
    }

    @Test("an approval is posted as a bioauth-event+jwt the key set verifies: iss, iat, jti, sub, confirmation_id, status and the receipt")
    func approvedEvent() async throws {
        try await WebhookReceiver.run { receiver in
            try await TestServer.run { server in
                let setup = try await Self.setUp(server, webhook: receiver.url)
                let confirmation = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                try await Self.approve(server, setup, confirmation)
                let received = try await receiver.waitFor(1)
                try #require(received.count == 1)
                let event = try await Self.event(received[0], server)
                let claims = event.claims
                #expect(Set(claims.keys) == ["iss", "iat", "jti", "sub", "confirmation_id", "status", "receipt"])
                #expect(claims["iss"] as? String == "https://\(LoopbackServer.relyingPartyID)")
                #expect(claims["iat"] as? Int == Int(server.clock.now.timeIntervalSince1970))
                #expect(claims["jti"] as? String == "\(confirmation.id).approved")
                #expect(claims["sub"] as? String == setup.account.user.id)
                #expect(claims["confirmation_id"] as? String == confirmation.id && claims["status"] as? String == "approved")
                let stored = try await server.api.serviceRead(confirmation.id, credential: setup.credential)
                #expect(claims["receipt"] as? String == stored.receipt)
                // A tampered event no longer verifies.
                var forged = event
                forged.signingInput = Data(received[0].body.split(separator: ".")[0].utf8) + Data(".e30".utf8)
                #expect(!forged.verifies(with: try await server.api.keySet()))
            }
        }
    }

    @Test("a declined and a blocked confirmation are posted too, without a receipt; failures before the fifth post nothing")
    func declinedAndBlocked() async throws {
        try await WebhookReceiver.run { receiver in
            try await TestServer.run { server in
                let setup = try await Self.setUp(server, webhook: receiver.url)
                let declined = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                let blocked = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                let forger = SoftwareDeviceKey.es256()
                for _ in 1...4 {
                    try await Self.forge(server, setup, blocked, with: forger)
                }
                try await server.api.expect(
                    .ok,
                    BioAuthProtocol.Confirmation.self,
                    .post,
                    Endpoint.declineConfirmation.path(declined.id),
                    token: setup.account.sessionToken
                )
                let first = try await receiver.waitFor(1)
                try #require(first.count == 1, "only the decline was posted")
                try await Self.forge(server, setup, blocked, with: forger)
                let received = try await receiver.waitFor(2)
                var statuses: [String: String] = [:]
                for post in received {
                    let claims = try await Self.event(post, server).claims
                    #expect(claims["receipt"] == nil && claims["sub"] as? String == setup.account.user.id)
                    statuses[try #require(claims["confirmation_id"] as? String)] = claims["status"] as? String
                    #expect(claims["jti"] as? String == "\(claims["confirmation_id"] as? String ?? "").\(claims["status"] as? String ?? "")")
                }
                #expect(statuses == [declined.id: "declined", blocked.id: "blocked"])
            }
        }
    }

    @Test("a revoked credential's webhook hears nothing of its confirmations")
    func revokedCredential() async throws {
        try await WebhookReceiver.run { receiver in
            try await TestServer.run { server in
                let setup = try await Self.setUp(server, webhook: receiver.url)
                let confirmation = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                let revoked = try #require(try await server.server.serviceCredentialAdministration.list().first)
                _ = try await server.server.serviceCredentialAdministration.revoke(id: revoked.id)
                try await Self.approve(server, setup, confirmation)
                let events = server.server.services.confirmations.events
                #expect(try await events.post(for: confirmation.id) == nil)
                try await Task.sleep(for: .milliseconds(300))
                #expect(receiver.received.isEmpty)
            }
        }
    }

    @Test("an event the backend answers with errors is tried three times, 1 s and 5 s apart, with the same body, then given up")
    func retries() async throws {
        try await WebhookReceiver.run(answering: [500, 503, 500, 200]) { receiver in
            try await TestServer.run { server in
                let setup = try await Self.setUp(server, webhook: receiver.url)
                let confirmation = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                try await Self.approve(server, setup, confirmation)
                let received = try await receiver.waitFor(3)
                try #require(received.count == 3)
                #expect(Set(received.map(\.body)).count == 1, "every attempt carries the same event")
                #expect(received[1].at - received[0].at >= .milliseconds(950))
                #expect(received[2].at - received[1].at >= .milliseconds(4950))
                try await Task.sleep(for: .seconds(2))
                #expect(receiver.received.count == 3, "no fourth attempt")
                _ = try await Self.event(received[0], server)
            }
        }
    }

    @Test("the approval is answered while the backend still holds the event unanswered")
    func approvalDoesNotWait() async throws {
        try await WebhookReceiver.run { receiver in
            try await TestServer.run { server in
                let setup = try await Self.setUp(server, webhook: receiver.url)
                let confirmation = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                receiver.hold()
                let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        try await Self.approve(server, setup, confirmation)
                        return true
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(5))
                        return false
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? false
                }
                #expect(answered, "the approval waited for the webhook")
                #expect(try await receiver.waitFor(1).count == 1)
                receiver.open()
            }
        }
    }

    @Test("no log line holds the event, its parts, the receipt or the webhook's URL")
    func logsHoldNoEvent() async throws {
        let records = LogRecords()
        let logger = {
            var logger = Logger(label: "bioauth-test", factory: { _ in RecordingLogHandler(records: records) })
            logger.logLevel = .trace
            return logger
        }()
        try await WebhookReceiver.run(answering: [500]) { receiver in
            let url = receiver.url + "?secret=hook-s3cret-value"
            let secrets = try await TestServer.run(logger: logger) { server in
                let setup = try await Self.setUp(server, webhook: url)
                let confirmation = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
                try await Self.approve(server, setup, confirmation)
                let received = try await receiver.waitFor(2)
                try #require(received.count == 2)
                let body = received[1].body
                let receipt = try #require(try await server.api.serviceRead(confirmation.id, credential: setup.credential).receipt)
                try await Task.sleep(for: .milliseconds(200))
                return [body, receipt, "hook-s3cret-value", receiver.url] + body.split(separator: ".").map(String.init)
            }
            let logged = records.all.joined(separator: "\n")
            #expect(logged.contains("webhook answered an error") && logged.contains("webhook event delivered"))
            for secret in secrets {
                #expect(!logged.contains(secret), "a log line holds \(secret.prefix(12))…")
            }
        }
    }

    @Test("the queue is bounded: events beyond it are dropped and logged, never held without limit")
    func boundedQueue() async throws {
        let records = LogRecords()
        let logger = Logger(label: "bioauth-test", factory: { _ in RecordingLogHandler(records: records) })
        try await WebhookReceiver.run { receiver in
            let delivery = WebhookDelivery(schedule: .init(capacity: 1, concurrency: 1), logger: logger)
            let post = WebhookDelivery.Post(url: receiver.url, body: "event")
            receiver.hold()
            delivery.enqueue(.init(confirmationID: "cnf_first", prepare: { post }))
            _ = try await receiver.waitFor(1)
            for index in 0..<10 { delivery.enqueue(.init(confirmationID: "cnf_\(index)", prepare: { post })) }
            #expect(records.all.filter { $0.contains("webhook queue full") }.count >= 8)
            receiver.open()
            _ = try await receiver.waitFor(2)
            try await Task.sleep(for: .milliseconds(500))
            #expect((2...3).contains(receiver.received.count))
            await delivery.shutdown()
        }
    }
}
