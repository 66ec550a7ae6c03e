import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// What the server promises of an approval (docs/protocol/CONFIRMATIONS.md): through the account
/// core, in one transaction with the confirmation's change; once; over exactly the stored
/// details, the challenge and an active key of the account; not after expiry or a credential
/// change; five failures block it.
@Suite("Confirmation approvals")
struct ConfirmationApprovalTests {
    /// An account with a biometric key, a backend's credential and a pending payment for it.
    struct Setup {
        var account: SignInResponse
        var key: SoftwareDeviceKey
        var registration: Registration
        var credential: String
        var confirmation: BioAuthProtocol.Confirmation
    }

    static func setUp(_ server: TestServer, expiresIn: Int? = nil) async throws -> Setup {
        let (account, key, registration) = try await server.api.newAccountWithKey()
        let credential = try await server.serviceCredential()
        let confirmation = try await server.confirmation(for: account.user.id, expiresIn: expiresIn, credential: credential)
        return Setup(account: account, key: key, registration: registration, credential: credential, confirmation: confirmation)
    }

    /// A device key's signed approval of `setup`'s confirmation, read as the approval reads it.
    static func proof(_ server: TestServer, _ setup: Setup) async throws -> DeviceKeyProof {
        let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
        let assertion = try await server.server.services.biometrics.assertions.read(
            challengeID: body.challengeID,
            signature: body.signature,
            kind: .biometric,
            userID: setup.account.user.id,
            signing: .confirmation(detailsHash: setup.confirmation.detailsHash.data)
        )
        return DeviceKeyProof(signatureOf: assertion, factor: .biometric)
    }

    @Test("an approval makes the confirmation approved once, with factor, key and receipt, and no session; a replay is confirmation_closed")
    func approvedOnce() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let sessions = try await server.snapshot().tables["sessions", default: []]
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            let approved = try await server.api.approve(setup.confirmation.id, body, token: setup.account.sessionToken).decode(
                BioAuthProtocol.Confirmation.self
            )
            #expect(approved.status == .approved)
            #expect(approved.factor == .biometric && approved.registrationID == setup.registration.id && approved.receipt != nil)
            #expect(try await server.snapshot().tables["sessions", default: []] == sessions, "no session was made")
            #expect(try await server.api.serviceRead(setup.confirmation.id, credential: setup.credential) == approved)
            try await server.api.expectError(
                .confirmationClosed,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            let fresh = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id).body
            try await server.api.expectError(
                .confirmationClosed,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: fresh,
                token: setup.account.sessionToken
            )
            let events = try await server.api.auditEvents(token: setup.account.sessionToken)
            #expect(events.filter { $0.type == .confirmationApproved && $0.outcome == .success }.count == 1)
        }
    }

    @Test("of two proofs read while the confirmation was pending, the completion approves one; the other is confirmation_closed")
    func approvedOnceInTheCompletion() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let core = server.server.services.core
            let first = try await Self.proof(server, setup)
            let second = try await Self.proof(server, setup)
            let approval = SignInCompletion.ConfirmationApproval(confirmationID: setup.confirmation.id, receipt: "r")
            _ = try await core.record(first, approving: approval, now: server.clock.now)
            await #expect { _ = try await core.record(second, approving: approval, now: server.clock.now) } throws: {
                ($0 as? Rejection)?.code == .confirmationClosed
            }
            #expect(try await server.stored(setup.confirmation.id)?.storedStatus == .approved)
        }
    }

    @Test("of approvals racing at once, exactly one approves; the others are confirmation_closed")
    func racingApprovals() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let core = server.server.services.core
            var proofs: [DeviceKeyProof] = []
            for _ in 0..<6 { proofs.append(try await Self.proof(server, setup)) }
            let approval = SignInCompletion.ConfirmationApproval(confirmationID: setup.confirmation.id, receipt: "r")
            let now = server.clock.now
            let outcomes = await withTaskGroup(of: ErrorCode?.self) { group in
                for proof in proofs {
                    group.addTask {
                        do {
                            _ = try await core.record(proof, approving: approval, now: now)
                            return nil
                        } catch {
                            return (error as? Rejection)?.code ?? .internalError
                        }
                    }
                }
                return await group.reduce(into: [ErrorCode?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .confirmationClosed })
            let events = try await server.api.auditEvents(token: setup.account.sessionToken)
            #expect(events.filter { $0.type == .confirmationApproved && $0.outcome == .success }.count == 1)
        }
    }

    @Test("a signature over other details (the payee changed after display) is signature_invalid and approves nothing")
    func otherDetailsRefused() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            var shown = examplePayment
            shown.payeeName = "Mallory Example"
            let (body, _) = try await server.api.signedApproval(
                setup.confirmation,
                key: setup.key,
                registrationID: setup.registration.id,
                details: shown
            )
            try await server.api.expectError(
                .signatureInvalid,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            let stored = try #require(try await server.stored(setup.confirmation.id))
            #expect(stored.storedStatus == .pending && stored.failures == 1 && stored.receipt == nil)
        }
    }

    @Test("a signature for one confirmation, replayed for a second, is refused and approves nothing")
    func replayedForAnother() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let second = try await server.confirmation(for: setup.account.user.id, credential: setup.credential)
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            try await server.api.expectError(
                .signatureInvalid,
                .post,
                Endpoint.approveConfirmation.path(second.id),
                json: body,
                token: setup.account.sessionToken
            )
            // Its challenge is spent, so neither is the first approvable with it any more.
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            #expect(try await server.stored(second.id)?.storedStatus == .pending)
            #expect(try await server.stored(setup.confirmation.id)?.storedStatus == .pending)
        }
    }

    @Test("after its expiry a confirmation is not approved: confirmation_closed, from the request and in the completion")
    func expired() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server, expiresIn: 30)
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            let proof = try await Self.proof(server, setup)
            server.clock.advance(seconds: 30)
            try await server.api.expectError(
                .confirmationClosed,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            let approval = SignInCompletion.ConfirmationApproval(confirmationID: setup.confirmation.id, receipt: "r")
            await #expect { _ = try await server.server.services.core.record(proof, approving: approval, now: server.clock.now) } throws: {
                ($0 as? Rejection)?.code == .confirmationClosed
            }
            #expect(try await server.api.serviceRead(setup.confirmation.id, credential: setup.credential).status == .expired)
        }
    }

    @Test("another account's confirmation is not_found to the caller, whatever key signs")
    func anotherAccountsConfirmation() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let (mallory, malloryKey, malloryRegistration) = try await server.api.newAccountWithKey()
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: malloryKey, registrationID: malloryRegistration.id)
            try await server.api.expectError(
                .notFound,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: mallory.sessionToken
            )
            try await server.api.expectError(.notFound, .post, Endpoint.declineConfirmation.path(setup.confirmation.id), token: mallory.sessionToken)
            // The owner's key signing, sent with another account's session: its key is not that account's.
            let (owners, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            try await server.api.expectError(
                .notFound,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: owners,
                token: mallory.sessionToken
            )
            // And the completion approves only the proof's own account's confirmation.
            let theirs = try await server.confirmation(for: mallory.user.id, credential: setup.credential)
            let proof = try await Self.proof(server, setup)
            let approval = SignInCompletion.ConfirmationApproval(confirmationID: theirs.id, receipt: "r")
            await #expect { _ = try await server.server.services.core.record(proof, approving: approval, now: server.clock.now) } throws: {
                ($0 as? Rejection)?.code == .confirmationClosed
            }
            #expect(try await server.stored(setup.confirmation.id)?.storedStatus == .pending)
            #expect(try await server.stored(theirs.id)?.storedStatus == .pending)
        }
    }

    @Test("a key revoked after its challenge approves nothing: challenge_invalid")
    func revokedKey() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            let status = try await server.api.call(
                .delete,
                Endpoint.deleteRegistration.path(setup.registration.id),
                token: setup.account.sessionToken
            ).status
            #expect(status == .noContent)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            #expect(try await server.stored(setup.confirmation.id)?.storedStatus == .pending)
        }
    }

    @Test("a password change between the challenge and the approval (the epoch moved) approves nothing")
    func epochMoved() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            let change = ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "a brand new password")
            #expect(
                try await server.api.call(.put, Endpoint.changePassword.path(), json: change, token: setup.account.sessionToken).status == .noContent
            )
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.approveConfirmation.path(setup.confirmation.id),
                json: body,
                token: setup.account.sessionToken
            )
            #expect(try await server.stored(setup.confirmation.id)?.storedStatus == .pending)
            let fresh = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id).body
            #expect(try await server.api.approve(setup.confirmation.id, fresh, token: setup.account.sessionToken).status == .ok)
        }
    }

    @Test("five approvals in a row that do not hold block the confirmation; then even a good one is confirmation_closed")
    func fiveFailuresBlock() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let forger = SoftwareDeviceKey.es256()
            let path = Endpoint.approveConfirmation.path(setup.confirmation.id)
            for attempt in 1...5 {
                let (body, _) = try await server.api.signedApproval(setup.confirmation, key: forger, registrationID: setup.registration.id)
                try await server.api.expectError(.signatureInvalid, .post, path, json: body, token: setup.account.sessionToken)
                #expect(try await server.stored(setup.confirmation.id)?.failures == attempt)
            }
            #expect(try await server.api.serviceRead(setup.confirmation.id, credential: setup.credential).status == .blocked)
            let (good, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            try await server.api.expectError(.confirmationClosed, .post, path, json: good, token: setup.account.sessionToken)
            let events = try await server.api.auditEvents(token: setup.account.sessionToken)
            #expect(events.contains { $0.type == .confirmationApproved && $0.outcome == .failure && $0.count == 5 })
        }
    }

    @Test("malformed approvals are a 4xx with their code and change nothing: bad JSON, bad base64url, a malformed signature, a forged challenge id")
    func badApprovals() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let path = Endpoint.approveConfirmation.path(setup.confirmation.id)
            let token = setup.account.sessionToken
            let (body, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            let before = try await server.snapshot()
            for raw in ["{", "[]", #"{"challenge_id": 1, "signature": "AAAA"}"#, #"{"challenge_id": "\#(body.challengeID)", "signature": "AA+/"}"#] {
                try await server.api.expectError(.invalidRequest, .post, path, raw: Data(raw.utf8), token: token)
            }
            var malformed = body
            malformed.signature = Base64URLBytes(Data([0x30, 0x01]))
            try await server.api.expectError(.invalidSignatureEncoding, .post, path, json: malformed, token: token)
            var forged = body
            forged.challengeID = "chl_" + String(repeating: "0", count: 112)
            try await server.api.expectError(.challengeInvalid, .post, path, json: forged, token: token)
            try await server.api.expectError(.notFound, .post, Endpoint.approveConfirmation.path("cnf_x"), json: body, token: token)
            #expect(try await server.snapshot() == before)
            #expect(try await server.api.approve(setup.confirmation.id, body, token: token).status == .ok)
        }
    }

    @Test("a good approval after failures approves (the failures in a row are fewer than five)")
    func fewerFailuresStillApprove() async throws {
        try await TestServer.run { server in
            let setup = try await Self.setUp(server)
            let path = Endpoint.approveConfirmation.path(setup.confirmation.id)
            for _ in 1...4 {
                let (body, _) = try await server.api.signedApproval(setup.confirmation, key: .es256(), registrationID: setup.registration.id)
                try await server.api.expectError(.signatureInvalid, .post, path, json: body, token: setup.account.sessionToken)
            }
            let (good, _) = try await server.api.signedApproval(setup.confirmation, key: setup.key, registrationID: setup.registration.id)
            #expect(try await server.api.approve(setup.confirmation.id, good, token: setup.account.sessionToken).status == .ok)
        }
    }
}
