import BioAuthProtocol
@testable import BioAuthServer
import BioAuthTesting
import Foundation
import Testing

/// Five consecutive failures of one factor lock that factor for 15 minutes.
@Suite("Lockout")
struct LockoutTests {
    private func wrongPassword(_ server: TestServer, _ username: String) async throws -> APIResponse {
        try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: username, password: "wrong password!"))
    }

    @Test("five wrong passwords lock the password for 15 minutes, with Retry-After")
    func passwordLockoutAndRetryAfter() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            for _ in 0..<5 {
                let answer = try await wrongPassword(server, user.username)
                #expect(answer.errorCode == .invalidCredentials)
            }
            let locked = try await server.api.expectError(.locked, .post, "/v1/sessions/password",
                                                          json: PasswordSignInRequest(username: user.username, password: "correct horse battery"))
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")

            server.clock.advance(seconds: 600)
            let later = try await server.api.expectError(.locked, .post, "/v1/sessions/password",
                                                         json: PasswordSignInRequest(username: user.username, password: "correct horse battery"))
            #expect(later.headers[.retryAfter] == "300")

            server.clock.advance(seconds: 300)
            _ = try await server.api.signIn(user.username)
        }
    }

    @Test("a success resets the count")
    func successResets() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            for _ in 0..<4 { _ = try await wrongPassword(server, user.username) }
            _ = try await server.api.signIn(user.username)
            for _ in 0..<4 {
                let answer = try await wrongPassword(server, user.username)
                #expect(answer.errorCode == .invalidCredentials)
            }
            _ = try await server.api.signIn(user.username)
        }
    }

    @Test("a locked PIN does not lock the password, nor the other way round")
    func pinLockoutIndependentOfPassword() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let pinDevice = try await server.api.setPIN("4921", token: account.sessionToken)
            for _ in 0..<5 {
                #expect(try await server.api.pinSignIn(pinDevice, pin: "0000").errorCode == .invalidCredentials)
            }
            let locked = try await server.api.pinSignIn(pinDevice, pin: "4921")
            #expect(locked.errorCode == .locked)
            #expect(locked.headers[.retryAfter] == "900")
            server.clock.advance(seconds: 900)
            #expect(try await server.api.pinSignIn(pinDevice, pin: "4921").status == .ok)

            for _ in 0..<5 { _ = try await wrongPassword(server, account.user.username) }
            try await server.api.expectError(.locked, .post, "/v1/sessions/password",
                                             json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery"))
            #expect(try await server.api.pinSignIn(pinDevice, pin: "4921").status == .ok)
        }
    }

    @Test("an unknown username locks exactly like a real one")
    func unknownUserLocksAlike() async throws {
        try await TestServer.run { server in
            for _ in 0..<5 {
                let answer = try await wrongPassword(server, "nobody-here")
                #expect(answer.errorCode == .invalidCredentials)
            }
            let answer = try await wrongPassword(server, "nobody-here")
            #expect(answer.errorCode == .locked)
        }
    }

    @Test("lockout counters survive a restart")
    func countersSurviveRestart() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
        let username = try await TestServer.run(configure: { $0.databasePath = path }) { server in
            let user = try await server.api.signUp()
            for _ in 0..<3 { _ = try await wrongPassword(server, user.username) }
            return user.username
        }
        try await TestServer.run(configure: { $0.databasePath = path }) { server in
            for _ in 0..<2 {
                let answer = try await wrongPassword(server, username)
                #expect(answer.errorCode == .invalidCredentials)
            }
            let answer = try await wrongPassword(server, username)
            #expect(answer.errorCode == .locked)
        }
        }
    }

    @Test("a run of failures is forgotten after the lockout period without attempts; a purge then removes its row")
    func failureRunDecays() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            for _ in 0..<4 { _ = try await wrongPassword(server, user.username) }
            for _ in 0..<4 { _ = try await wrongPassword(server, "guessed-name") }
            server.clock.advance(seconds: 15 * 60)
            // Both runs are forgotten: their rows go, and four more failures still do not lock.
            #expect(try await server.server.purge().lockouts == 2)
            for _ in 0..<4 {
                let answer = try await wrongPassword(server, user.username)
                #expect(answer.errorCode == .invalidCredentials)
            }
            // Without a purge the same holds: the count restarts after the quiet period.
            server.clock.advance(seconds: 15 * 60)
            for _ in 0..<4 {
                let answer = try await wrongPassword(server, user.username)
                #expect(answer.errorCode == .invalidCredentials)
            }
            let fifth = try await wrongPassword(server, user.username)
            #expect(fifth.errorCode == .invalidCredentials)
            let locked = try await wrongPassword(server, user.username)
            #expect(locked.errorCode == .locked, "five in a row within the period still lock")
        }
    }
}
