import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// Several instances whose clocks drift still agree on when a lock ends: the database decides.
@Suite("Lock expiry by the database's clock")
struct LockExpiryClockTests {
    @Test("an instance whose clock runs a day ahead still sees the lock another instance set")
    func skewedInstanceSeesTheLock() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
            let username = try await TestServer.run(time: .system, configure: { $0.databasePath = path }) { server in
                let user = try await server.api.signUp()
                for _ in 0..<5 {
                    try await server.api.call(
                        .post,
                        "/v1/sessions/password",
                        json: PasswordSignInRequest(username: user.username, password: "wrong password")
                    )
                }
                return user.username
            }
            // The same system clock, a day fast: with its own clock it would think the lock ran out.
            let skewed = TimeSource(now: { Date().addingTimeInterval(86_400) }, isSystemClock: true)
            let answer = try await TestServer.run(time: skewed, configure: { $0.databasePath = path }) { server in
                try await server.api.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: username, password: "correct horse battery")
                )
            }
            #expect(answer.errorCode == .locked)
            let retryAfter = try #require(answer.headers[.retryAfter].flatMap { Int($0) })
            #expect((850...900).contains(retryAfter), "the wait is the database's, not the skewed instance's")
        }
    }

    @Test("an instance whose clock runs an hour ahead purges no spent challenge that an instance on time would still take: the replay stays refused")
    func skewedPurgeKeepsSpentChallenges() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
            let replay = try await TestServer.run(time: .system, configure: { $0.databasePath = path }) { server in
                let (_, key, registration) = try await server.api.newAccountWithKey()
                let signed = try await server.api.signedAuthentication(key, registrationID: registration.id)
                try await server.api.expect(.ok, SignInResponse.self, .post, Endpoint.signInWithBiometric.path(), json: signed)
                return signed
            }
            let ahead = TimeSource(now: { Date().addingTimeInterval(3_600) }, isSystemClock: true)
            try await TestServer.run(time: ahead, configure: { $0.databasePath = path }) { server in
                _ = try await server.server.purge()
            }
            try await TestServer.run(time: .system, configure: { $0.databasePath = path }) { server in
                try await server.api.expectError(.challengeInvalid, .post, Endpoint.signInWithBiometric.path(), json: replay)
            }
        }
    }
}
