import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// A bank's backend asks (`createConfirmation`), reads the outcome (`getConfirmation`); the
/// account lists its confirmations and declines one. Bad details are each a 400 with their code
/// and field, storing nothing.
@Suite("Confirmation requests")
struct ConfirmationRequestTests {
    @Test("a created confirmation holds the server's canonical hash and text, pending until its expiry, with its audit event")
    func created() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let confirmation = try await server.confirmation(for: account.user.id, expiresIn: 60)
            #expect(confirmation.status == .pending)
            #expect(confirmation.details == examplePayment)
            #expect(confirmation.detailsHash.data == examplePayment.hash(confirmationID: confirmation.id))
            #expect(confirmation.text == ConfirmationTextBody(ConfirmationText(examplePayment)!))
            #expect(confirmation.expiresAt == confirmation.createdAt.addingTimeInterval(60))
            #expect(try await server.stored(confirmation.id)?.details == examplePayment, "the stored details read back as asked")
            let events = try await server.api.auditEvents(token: account.sessionToken)
            #expect(events.contains { $0.type == .confirmationCreated && $0.outcome == .success })
        }
    }

    @Test("a pending confirmation past its expiry reads expired, to the backend and in the account's list")
    func expiredIsRead() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let confirmation = try await server.confirmation(for: account.user.id, expiresIn: 30, credential: credential)
            server.clock.advance(seconds: 30)
            #expect(try await server.api.serviceRead(confirmation.id, credential: credential).status == .expired)
            let list = try await server.api.expect(.ok, ConfirmationList.self, .get, Endpoint.listConfirmations.path(), token: account.sessionToken)
            #expect(list.confirmations.map(\.status) == [.expired])
            try await server.api.expectError(
                .confirmationClosed,
                .post,
                Endpoint.declineConfirmation.path(confirmation.id),
                token: account.sessionToken
            )
        }
    }

    @Test("the list: pending ones oldest first, then the 20 latest others newest first; only the account's own")
    func listOrder() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let other = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            var made: [BioAuthProtocol.Confirmation] = []
            for _ in 0..<24 {
                made.append(try await server.confirmation(for: account.user.id, credential: credential))
                server.clock.advance(seconds: 1)
            }
            _ = try await server.confirmation(for: other.user.id, credential: credential)
            for confirmation in made[..<22] {
                try await server.api.expect(
                    .ok,
                    BioAuthProtocol.Confirmation.self,
                    .post,
                    Endpoint.declineConfirmation.path(confirmation.id),
                    token: account.sessionToken
                )
            }
            let list = try await server.api.expect(.ok, ConfirmationList.self, .get, Endpoint.listConfirmations.path(), token: account.sessionToken)
            let expected = [made[22].id, made[23].id] + made[2..<22].reversed().map(\.id)
            #expect(list.confirmations.map(\.id) == expected)
            #expect(list.confirmations.prefix(2).allSatisfy { $0.status == .pending })
            #expect(list.confirmations.dropFirst(2).allSatisfy { $0.status == .declined && $0.decidedAt != nil })
        }
    }

    @Test("the list shows at most 100 pending confirmations, the oldest")
    func listBounded() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            var made: [String] = []
            for _ in 0..<101 {
                made.append(try await server.confirmation(for: account.user.id, expiresIn: 3600, credential: credential).id)
                server.clock.advance(seconds: 1)
            }
            let list = try await server.api.expect(.ok, ConfirmationList.self, .get, Endpoint.listConfirmations.path(), token: account.sessionToken)
            #expect(list.confirmations.map(\.id) == Array(made.prefix(100)))
        }
    }

    @Test("decline: the account's pending confirmation becomes declined once; another account's is 404; the backend reads it")
    func decline() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let other = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let confirmation = try await server.confirmation(for: account.user.id, credential: credential)
            let path = Endpoint.declineConfirmation.path(confirmation.id)
            try await server.api.expectError(.notFound, .post, path, token: other.sessionToken)
            let declined = try await server.api.expect(.ok, BioAuthProtocol.Confirmation.self, .post, path, token: account.sessionToken)
            #expect(declined.status == .declined)
            try await server.api.expectError(.confirmationClosed, .post, path, token: account.sessionToken)
            #expect(try await server.api.serviceRead(confirmation.id, credential: credential).status == .declined)
            let events = try await server.api.auditEvents(token: account.sessionToken)
            #expect(events.filter { $0.type == .confirmationDeclined }.count == 1)
        }
    }

    /// Details that break a rule, each with its code and the field `reason` names.
    static let refusedDetails: [(details: ConfirmationDetails, code: ErrorCode, field: String)] = [
        (ConfirmationDetails(kind: ConfirmationKind(rawValue: "transfer"), action: "x"), .invalidConfirmation, "kind"),
        (ConfirmationDetails(kind: .payment, amount: "1.00", currency: "EUR"), .invalidConfirmation, "payee_name"),
        (ConfirmationDetails(kind: .action, amount: "1.00", action: "Add a payee"), .invalidConfirmation, "amount"),
        (.payment(amount: "12,50", currency: "EUR", payeeName: "Bob"), .invalidAmount, "amount"),
        (.payment(amount: "1e3", currency: "EUR", payeeName: "Bob"), .invalidAmount, "amount"),
        (.payment(amount: "0.00", currency: "EUR", payeeName: "Bob"), .invalidAmount, "amount"),
        (.payment(amount: "10.5", currency: "JPY", payeeName: "Bob"), .invalidAmount, "amount"),
        (.payment(amount: "10.00", currency: "XYZ", payeeName: "Bob"), .invalidCurrency, "currency"),
        (.payment(amount: "10.00", currency: "eur", payeeName: "Bob"), .invalidCurrency, "currency"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "Bob\u{0007}"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "Bob\u{202E}evil"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "Bo\u{200B}b"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "P\u{0430}yPal"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "\u{0420}\u{0430}\u{0443}"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "\u{FF30}ay"), .invalidConfirmationText, "payee_name"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: "Bob", payeeAccount: "DE89\u{00A0}3704"), .invalidConfirmationText, "payee_account"),
        (.payment(amount: "1.00", currency: "EUR", payeeName: String(repeating: "a", count: 71)), .confirmationTooLarge, "payee_name"),
        (.action(String(repeating: "a", count: 141)), .confirmationTooLarge, "action"),
        (
            .payment(
                amount: "1.00",
                currency: "EUR",
                payeeName: String(repeating: "\u{1F600}", count: 70),
                payeeAccount: String(repeating: "1", count: 64),
                reference: String(repeating: "\u{1F600}", count: 140)
            ), .confirmationTooLarge, "details"
        ),
    ]

    @Test("bad details are a 400 with their code and field, and store nothing", arguments: refusedDetails)
    func badDetails(details: ConfirmationDetails, code: ErrorCode, field: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let before = try await server.snapshot()
            let body = CreateConfirmationRequest(userID: account.user.id, details: details)
            let answer = try await server.api.expectError(code, .post, Endpoint.createConfirmation.path(), json: body, token: credential)
            #expect(answer.status == .badRequest)
            #expect(try answer.decode(ErrorResponse.self).error.reason == field)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test(
        "an expiry outside 30…3600 s is invalid_confirmation, an unknown account account_not_found, malformed bodies invalid_request; nothing stored"
    )
    func badRequests() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let credential = try await server.serviceCredential()
            let before = try await server.snapshot()
            let path = Endpoint.createConfirmation.path()
            for seconds in [29, 3601, 0, -5] {
                let body = CreateConfirmationRequest(userID: account.user.id, details: examplePayment, expiresInSeconds: seconds)
                let answer = try await server.api.expectError(.invalidConfirmation, .post, path, json: body, token: credential)
                #expect(try answer.decode(ErrorResponse.self).error.reason == "expires_in_seconds")
            }
            for user in ["usr_00000000000000000000000000000000", "nobody", ""] {
                let body = CreateConfirmationRequest(userID: user, details: examplePayment)
                try await server.api.expectError(.accountNotFound, .post, path, json: body, token: credential)
            }
            for raw in [
                #"{"user_id": "x"}"#, #"{"user_id": "x", "details": {"kind": 1}}"#,
                #"{"user_id": "\u0000", "details": {"kind": "action", "action": "x"}}"#, "[",
            ] {
                try await server.api.expectError(.invalidRequest, .post, path, raw: Data(raw.utf8), token: credential)
            }
            #expect(try await server.snapshot() == before)
        }
    }
}
