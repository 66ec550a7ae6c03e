import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@Suite("Unknown user vs wrong password")
struct UsernameEnumerationTests {
    @Test("unknown user and wrong password give the same status, code and message")
    func sameAnswer() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let unknown = try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: "no-such-user", password: "wrong password!"))
            let wrong = try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
            #expect(unknown.status == wrong.status)
            #expect(unknown.body == wrong.body)
            let account = try await server.api.signIn(user.username)
            let pinDevice = try await server.api.setPIN("3917", token: account.sessionToken)
            let wrongPIN = try await server.api.pinSignIn(pinDevice, pin: "3918")
            #expect(wrongPIN.body == wrong.body)
        }
    }

    /// With a real cost the hash dominates; without the dummy hash an unknown user would answer in
    /// a small fraction of the time. Both do the same writes too (the test below), so the fastest
    /// of interleaved runs must agree within a factor of 1.5: other tests running beside this one
    /// (they share the hashing thread pool) only ever add time, so the fastest run of each kind
    /// is the one closest to its own work, where a median of ten moved with the load in CI.
    @Test("unknown user takes about as long as a wrong password")
    func unknownUserTiming() async throws {
        try await TestServer.run(configure: { $0.passwordHashCost = 9; $0.lockoutThreshold = 1_000 }) { server in
            let user = try await server.api.signUp()
            var unknown: [Duration] = []
            var wrong: [Duration] = []
            let clock = ContinuousClock()
            for round in 0..<12 {
                let unknownTime = try await clock.measure {
                    try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: "ghost-\(round)", password: "wrong password!"))
                }
                let wrongTime = try await clock.measure {
                    try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
                }
                if round >= 2 {  // warm-up
                    unknown.append(unknownTime)
                    wrong.append(wrongTime)
                }
            }
            let fastestUnknown = unknown.min()!, fastestWrong = wrong.min()!
            let ratio = fastestUnknown / fastestWrong
            #expect(ratio > 1 / 1.5 && ratio < 1.5, "unknown/wrong ratio of the fastest runs \(ratio) (\(fastestUnknown) vs \(fastestWrong))")
        }
    }

    /// Timing is what an attacker measures; the writes are what it is made of. A commit that only
    /// a real account makes (an audit row) is a disk flush an attacker could time.
    @Test("a failed sign-in writes the same rows for an unknown username as for a real one")
    func failureWritesAlike() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp("real-user")
            func changes(_ username: String) async throws -> [String: Int] {
                let before = try await server.snapshot()
                try await server.api.expectError(.invalidCredentials, .post, "/v1/sessions/password",
                                                 json: PasswordSignInRequest(username: username, password: "wrong password!"))
                let after = try await server.snapshot()
                var changed: [String: Int] = [:]
                for (table, rows) in after.tables {
                    let added = Set(rows).subtracting(before.tables[table] ?? []).count
                    if added > 0 { changed[table] = added }
                }
                return changed
            }
            let real = try await changes(user.username)
            let unknown = try await changes("ghost-user")
            #expect(!real.isEmpty)
            #expect(real == unknown, "real account: \(real), unknown username: \(unknown)")
        }
    }
}
