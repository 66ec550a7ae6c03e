import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// Every credential change goes through the account core (``AccountCore/change(_:apply:)``): it
/// moves the credential epoch exactly once when it voids the verifications in flight and never
/// otherwise, and a credential added under a session that a concurrent recovery ended does not
/// survive it.
@Suite("Credential changes through the account core")
struct CredentialChangeTests {
    /// Each way an account's credentials change, by the means its owner or an operator has.
    enum Change: String, CaseIterable, CustomStringConvertible {
        case passwordChange, oneTimePasswordChange, resetPassword, recover, revokeSessions, revokeDevices, unlockFactors
        case signOutElsewhere, signOut, endOtherSession, deleteDeviceKey, deletePasskey, addDeviceKey, setPIN, addPasskey
        var description: String { rawValue }

        /// How far it moves the credential epoch: once if it voids verifications in flight.
        var epochAdvance: Int64 {
            switch self {
            case .passwordChange, .oneTimePasswordChange, .resetPassword, .recover, .revokeSessions, .revokeDevices, .signOutElsewhere: 1
            case .unlockFactors, .signOut, .endOtherSession, .deleteDeviceKey, .deletePasskey, .addDeviceKey, .setPIN, .addPasskey: 0
            }
        }
    }

    @Test(
        "each credential change moves the credential epoch exactly once, or not at all when no verification in flight is voided",
        arguments: Change.allCases
    )
    func epochMovesOnce(_ change: Change) async throws {
        try await TestServer.run { server in
            let (account, _, registration) = try await server.api.newAccountWithKey()
            let passkey = try await server.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: account.sessionToken)
            let other = try await server.api.signIn(account.user.username)
            let administration = server.administration
            let target = try await administration.account(account.user.id)
            let token = account.sessionToken
            // A one-time password's session, before the epoch is read: only its password change is measured.
            var restricted: SignInResponse?
            if change == .oneTimePasswordChange {
                let reset = try await administration.resetPassword(target)
                restricted = try await server.api.signIn(account.user.username, password: reset.password)
            }
            let before = try await Self.epoch(server, account.user.id)
            var answer: APIResponse?
            switch change {
            case .passwordChange:
                answer = try await server.api.call(
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "another good password"),
                    token: token
                )
            case .oneTimePasswordChange:
                answer = try await server.api.call(
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: nil, newPassword: "another good password"),
                    token: try #require(restricted).sessionToken
                )
            case .resetPassword: _ = try await administration.resetPassword(target)
            case .recover: _ = try await administration.recover(target)
            case .revokeSessions: _ = try await administration.revokeSessions(target)
            case .revokeDevices: _ = try await administration.revokeDevices(target)
            case .unlockFactors: try await administration.unlockFactors(target)
            case .signOutElsewhere: answer = try await server.api.call(.delete, "/v1/sessions", token: token)
            case .signOut: answer = try await server.api.call(.delete, "/v1/sessions/current", token: token)
            case .endOtherSession: answer = try await server.api.call(.delete, "/v1/sessions/\(other.session.id)", token: token)
            case .deleteDeviceKey: answer = try await server.api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: token)
            case .deletePasskey: answer = try await server.api.call(.delete, Endpoint.deletePasskey.path(passkey.id), token: token)
            case .addDeviceKey: _ = try await server.api.register(.es256(), token: token)
            case .setPIN: _ = try await server.api.setPIN("3917", token: token)
            case .addPasskey: try await server.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: token)
            }
            #expect(answer.map { (200..<300).contains($0.status.code) } ?? true, "\(answer.map { String(decoding: $0.body, as: UTF8.self) } ?? "")")
            #expect(try await Self.epoch(server, account.user.id) - before == change.epochAdvance)
        }
    }

    @Test("a passkey and a device key whose requests were authenticated before a recovery are refused after it: it ended their session")
    func credentialsAuthenticatedBeforeRecovery() async throws {
        try await TestServer.run { server in
            let services = server.server.services
            let account = try await server.api.newAccount()
            // Both requests have passed the bearer check and their step-up when the recovery runs.
            let caller = try await services.sessions.authenticate(token: account.sessionToken)
            let ceremony = try await server.api.passkeyRegistrationOptions(token: account.sessionToken)
            let credential = try SoftwareAuthenticator(origin: APIClient.origin).register(ceremony.publicKey)
            let key = SoftwareDeviceKey.es256()
            let start = try await server.api.startRegistration(key, token: account.sessionToken)
            let signature = key.sign(
                .registration,
                rpID: server.api.relyingPartyID,
                registrationID: start.registrationID,
                challenge: start.challenge.data
            )
            _ = try await server.administration.recover(try await server.administration.account(account.user.id))
            await #expect {
                try await services.passkeys.register(.init(ceremonyID: ceremony.ceremonyID, credential: credential), for: caller)
            } throws: {
                ($0 as? Rejection)?.code == .invalidSession
            }
            await #expect {
                try await services.registrations.verify(id: start.registrationID, VerifyRegistrationRequest(signature: signature), for: caller)
            } throws: { [.invalidSession, .registrationNotFound].contains(($0 as? Rejection)?.code) }
            #expect(try await Self.activeCredentials(server, account.user.id) == 0)
        }
    }

    @Test("passkeys and device keys finishing while a recovery runs: none survives it (each was refused, or added and then revoked)")
    func credentialsRacingRecovery() async throws {
        try await TestServer.run { server in
            let parallel = try ParallelClient(server)
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            // Every ceremony has passed its step-up before the recovery.
            var passkeys: [RegisterPasskeyRequest] = []
            for _ in 0..<4 {
                let ceremony = try await server.api.passkeyRegistrationOptions(token: token)
                let credential = try SoftwareAuthenticator(origin: APIClient.origin).register(ceremony.publicKey)
                passkeys.append(RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: credential, label: "racer"))
            }
            var keys: [(id: String, body: VerifyRegistrationRequest)] = []
            for _ in 0..<3 {  // the most pending at once
                let key = SoftwareDeviceKey.es256()
                let start = try await server.api.startRegistration(key, token: token)
                let signature = key.sign(
                    .registration,
                    rpID: server.api.relyingPartyID,
                    registrationID: start.registrationID,
                    challenge: start.challenge.data
                )
                keys.append((start.registrationID, VerifyRegistrationRequest(signature: signature)))
            }
            let target = try await server.administration.account(account.user.id)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for body in passkeys {
                    group.addTask { try await parallel.call(.post, Endpoint.registerPasskey.path(), json: body, token: token).status.code }
                }
                for key in keys {
                    group.addTask {
                        try await parallel.call(.post, Endpoint.verifyRegistration.path(key.id), json: key.body, token: token).status.code
                    }
                }
                group.addTask {
                    _ = try await server.administration.recover(target)
                    return 0
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { [0, 200, 201, 401, 404].contains($0) }, "\(statuses)")
            #expect(
                try await Self.activeCredentials(server, account.user.id) == 0,
                "a credential added under the ended session survived: \(statuses)"
            )
        }
    }

    @Test("a one-time password signs in once however many sign-ins race for it")
    func oneTimePasswordRace() async throws {
        // Four sign-ins a round from four addresses: within the lockout's five slots and the hashing queue.
        try await TestServer.run(configure: {
            $0.trustForwardedFor = true
            $0.hashQueue = 16
        }) { server in
            let parallel = try ParallelClient(server)
            let account = try await server.api.newAccount()
            let target = try await server.administration.account(account.user.id)
            for round in 0..<10 {
                let password = try await server.administration.resetPassword(target).password
                let statuses = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            try await parallel.call(
                                .post,
                                Endpoint.signInWithPassword.path(),
                                json: PasswordSignInRequest(username: account.user.username, password: password),
                                headers: [.init("X-Forwarded-For")!: "192.0.2.\(index + 1)"]
                            )
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.filter { $0.status == .ok }.count == 1, "round \(round): \(statuses.map(\.status.code))")
                #expect(statuses.filter { $0.errorCode == .invalidCredentials }.count == 3, "round \(round): \(statuses.map(\.status.code))")
            }
        }
    }

    @Test("a one-time password signs in once when two checked sign-ins complete at the same moment")
    func oneTimePasswordCompletionsAtOnce() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let password = try await server.administration.resetPassword(try await server.administration.account(account.user.id)).password
            let core = server.server.services.core
            let passwords = server.server.services.passwordSignIn
            let first = try await passwords.verify(username: account.user.username, password: password)
            let second = try await passwords.verify(username: account.user.username, password: password)
            #expect(first.holds && second.holds)
            // Both completions queue behind a transaction holding the account's row (PostgreSQL) or
            // the writer (SQLite), and are let go together.
            let signedIn = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await server.server.database.transaction { db in
                        try await UserTable.lock(db, id: account.user.id)
                        try await Task.sleep(for: .milliseconds(400))
                    }
                    return false
                }
                for proof in [first, second] {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(100))
                        do {
                            _ = try await core.complete(proof, for: .signIn(minutes: 60))
                            return true
                        } catch let rejection as Rejection where rejection.code == .invalidCredentials {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(signedIn == 1)
        }
    }

    private static func epoch(_ server: TestServer, _ userID: String) async throws -> Int64 {
        try #require(try await server.server.database.read { db in try await UserTable.epoch(db, id: userID) })
    }

    /// The account's active device keys and passkeys.
    private static func activeCredentials(_ server: TestServer, _ userID: String) async throws -> Int {
        try await server.server.database.read { db in
            try await RegistrationTable.all(db, userID: userID).filter { $0.wire.status == .active }.count
                + PasskeyTable.activeCount(db, userID: userID)
        }
    }
}
