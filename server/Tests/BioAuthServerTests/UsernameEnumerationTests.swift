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
            let unknown = try await server.api.call(
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: "no-such-user", password: "wrong password!")
            )
            let wrong = try await server.api.call(
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "wrong password!")
            )
            #expect(unknown.status == wrong.status)
            #expect(unknown.body == wrong.body)
            let account = try await server.api.signIn(user.username)
            let pinDevice = try await server.api.setPIN("3917", token: account.sessionToken)
            let wrongPIN = try await server.api.pinSignIn(pinDevice, pin: "3918")
            #expect(wrongPIN.body == wrong.body)
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
                try await server.api.expectError(
                    .invalidCredentials,
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: username, password: "wrong password!")
                )
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
