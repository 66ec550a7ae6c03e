import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

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
            let locked = try await server.api.expectError(
                .locked,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "correct horse battery")
            )
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")

            server.clock.advance(seconds: 600)
            let later = try await server.api.expectError(
                .locked,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "correct horse battery")
            )
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
            try await server.api.expectError(
                .locked,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery")
            )
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

    @Test("failures count until a success, never forgotten because time passed: four wrong passwords every 15 minutes lock at the fifth")
    func slowPasswordGuessesStillLock() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            for _ in 0..<4 { #expect(try await wrongPassword(server, user.username).errorCode == .invalidCredentials) }
            server.clock.advance(seconds: 15 * 60)
            _ = try await server.server.purge()
            #expect(try await wrongPassword(server, user.username).errorCode == .invalidCredentials, "the fifth in a row")
            #expect(try await wrongPassword(server, user.username).errorCode == .locked)
        }
    }

    @Test("an unknown username's counters are kept as an account's: four failures, a week idle, and the fifth locks both alike")
    func unknownUsernameCountersKeptAlike() async throws {
        try await TestServer.run { server in
            let account = try await server.api.signUp().username
            let names = [account, "guessed-name"]
            for name in names {
                for _ in 0..<4 { #expect(try await wrongPassword(server, name).errorCode == .invalidCredentials) }
            }
            server.clock.advance(seconds: 7 * 24 * 60 * 60)
            #expect(try await server.server.purge().lockouts == 0)
            for name in names {
                #expect(try await wrongPassword(server, name).errorCode == .invalidCredentials, "\(name): the fifth in a row")
                #expect(try await wrongPassword(server, name).errorCode == .locked, "\(name)")
            }
            // Past the audit retention idle, both go alike.
            server.clock.advance(seconds: 366 * 24 * 60 * 60)
            #expect(try await server.server.purge().lockouts == 2)
        }
    }

    @Test("each lock in a row lasts twice as long as the one before, up to the longest; a success starts again")
    func locksGrow() async throws {
        try await TestServer.run(configure: { $0.longestLockout = .seconds(60 * 60) }) { server in
            let user = try await server.api.signUp()
            for (number, minutes) in [(1, 15), (2, 30), (3, 60), (4, 60)] {
                for _ in 0..<5 { #expect(try await wrongPassword(server, user.username).errorCode == .invalidCredentials, "lock \(number)") }
                let locked = try await wrongPassword(server, user.username)
                #expect(locked.errorCode == .locked && locked.headers[.retryAfter] == String(minutes * 60), "lock \(number)")
                server.clock.advance(seconds: TimeInterval(minutes * 60 - 1))
                #expect(try await wrongPassword(server, user.username).errorCode == .locked, "lock \(number) holds to its end")
                server.clock.advance(seconds: 1)
            }
            _ = try await server.api.signIn(user.username)
            for _ in 0..<5 { _ = try await wrongPassword(server, user.username) }
            #expect(try await wrongPassword(server, user.username).headers[.retryAfter] == "900")
        }
    }

    @Test("a password locks for good after 100 consecutive failures, whatever the pace; an operator's unlock lifts it")
    func passwordFailuresAreBounded() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let policy = LockoutPolicy()
            var failures = 0
            while failures < 100 {
                let answer = try await wrongPassword(server, user.username)
                if answer.errorCode == .invalidCredentials {
                    failures += 1
                } else {
                    #expect(answer.errorCode == .locked, "after \(failures)")
                    server.clock.advance(seconds: TimeInterval(policy.lockMilliseconds(number: failures / policy.threshold) / 1000))
                }
            }
            // Longer than any retention: the purge keeps a lock until cleared.
            server.clock.advance(seconds: 400 * 24 * 60 * 60)
            #expect(try await server.server.purge().lockouts == 0)
            let locked = try await server.api.expectError(
                .passwordLocked,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "correct horse battery")
            )
            #expect(locked.status == .forbidden && locked.headers[.retryAfter] == nil)
            try await server.administration.unlockFactors(try await server.administration.account(user.username))
            _ = try await server.api.signIn(user.username)
        }
    }

    @Test("failures guessed at a username before it has an account do not pass to the account made with it")
    func noPreLockedAccounts() async throws {
        try await TestServer.run { server in
            let name = "future-\(UUID().uuidString.prefix(8))"
            for _ in 0..<5 { _ = try await wrongPassword(server, name) }
            #expect(try await wrongPassword(server, name).errorCode == .locked)
            _ = try await server.api.signUp(name)
            _ = try await server.api.signIn(name)
        }
    }
}
