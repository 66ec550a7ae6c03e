import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@Suite("Password sign-in and sessions")
struct PasswordSignInTests {
    @Test("sign up, sign in, see the session, sign out: the token dies with the session")
    func fullPasswordFlow() async throws {
        try await TestServer.run { server in
            let api = server.api
            let user = try await api.signUp("Alice", password: "correct horse battery")
            let signIn = try await api.signIn("alice", password: "correct horse battery")
            #expect(signIn.user == user)
            #expect(signIn.session.authentication == .init(method: .password))
            #expect(signIn.sessionToken.hasPrefix("bat_"))
            #expect(Base64URL.decode(String(signIn.sessionToken.dropFirst(4)))?.count == 16 + 32, "the session's id and a 256-bit secret")
            #expect(signIn.session.expiresAt.timeIntervalSince(signIn.session.createdAt) == 60 * 60, "default 60 minutes")

            let current = try await api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: signIn.sessionToken)
            #expect(current.session == signIn.session)
            #expect(current.user == user)
            let list = try await api.expect(.ok, SessionListResponse.self, .get, "/v1/sessions", token: signIn.sessionToken)
            #expect(list.sessions.map(\.id) == [signIn.session.id])

            let signOut = try await api.call(.delete, "/v1/sessions/current", token: signIn.sessionToken)
            #expect(signOut.status == .noContent)
            try await api.expectError(.invalidSession, .get, "/v1/sessions/current", token: signIn.sessionToken)
            try await api.expectError(.invalidSession, .delete, "/v1/sessions/current", token: signIn.sessionToken)

            let audit = try await api.expect(
                .ok,
                AuditEventListResponse.self,
                .get,
                "/v1/audit",
                token: try await api.signIn("ALICE").sessionToken
            )
            #expect(audit.events.map(\.type).prefix(4) == [.passwordSignIn, .sessionSignedOut, .passwordSignIn, .userCreated])
        }
    }

    @Test("every sign-in issues a new token and a new session")
    func newTokenPerSignIn() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let first = try await server.api.signIn(user.username)
            let second = try await server.api.signIn(user.username)
            #expect(first.sessionToken != second.sessionToken)
            #expect(first.session.id != second.session.id)
            let list = try await server.api.expect(.ok, SessionListResponse.self, .get, "/v1/sessions", token: first.sessionToken)
            #expect(Set(list.sessions.map(\.id)) == [first.session.id, second.session.id])
        }
    }

    @Test("a session ends at its expiry; the requested duration is honoured")
    func sessionExpiry() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let session = try await server.api.signIn(user.username, minutes: 5)
            #expect(session.session.expiresAt.timeIntervalSince(session.session.createdAt) == 5 * 60)
            server.clock.advance(seconds: 5 * 60 - 1)
            try await server.api.call(.get, "/v1/sessions/current", token: session.sessionToken)
            server.clock.advance(seconds: 1)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: session.sessionToken)
        }
    }

    @Test("session durations outside 5...43200 minutes are refused", arguments: [0, 4, 43_201, -1])
    func sessionDurationOutOfRange(minutes: Int) async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidSessionDuration,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "correct horse battery", sessionDurationMinutes: minutes)
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("usernames are NFKC-normalised and compared case-insensitively")
    func usernameNormalisation() async throws {
        try await TestServer.run { server in
            // "ﬁ" (U+FB01) is "fi" under NFKC; the full-width "Ｂ" is "B".
            let user = try await server.api.signUp("ﬁoＢar", password: "correct horse battery")
            #expect(user.username == "fioBar")
            try await server.api.expectError(
                .usernameTaken,
                .post,
                "/v1/users",
                json: CreateUserRequest(username: "FIOBAR", password: "another password")
            )
            _ = try await server.api.signIn("FIObar")
        }
    }

    @Test(
        "bad usernames and passwords are refused with their own codes",
        arguments: [
            ("ab", "long enough pw", ErrorCode.invalidUsername),
            (String(repeating: "x", count: 65), "long enough pw", .invalidUsername),
            (" alice", "long enough pw", .invalidUsername),
            ("al\u{0007}ice", "long enough pw", .invalidUsername),
            ("alice", "short", .invalidPassword),
            ("alice", String(repeating: "p", count: 257), .invalidPassword),
        ]
    )
    func invalidCredentialsAtSignUp(username: String, password: String, code: ErrorCode) async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            try await server.api.expectError(code, .post, "/v1/users", json: CreateUserRequest(username: username, password: password))
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("a session can be listed and revoked by id; others' sessions are not found")
    func revokeSessionByID() async throws {
        try await TestServer.run { server in
            let alice = try await server.api.newAccount()
            let second = try await server.api.signIn(alice.user.username)
            let bob = try await server.api.newAccount()

            let before = try await server.snapshot()
            try await server.api.expectError(.notFound, .delete, "/v1/sessions/\(alice.session.id)", token: bob.sessionToken)
            try await server.api.expectError(.notFound, .delete, "/v1/sessions/ses_00000000000000000000000000000000", token: bob.sessionToken)
            #expect(try await server.snapshot() == before, "a refused revocation changes nothing")

            let revoked = try await server.api.call(.delete, "/v1/sessions/\(second.session.id)", token: alice.sessionToken)
            #expect(revoked.status == .noContent)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: second.sessionToken)
            try await server.api.call(.get, "/v1/sessions/current", token: alice.sessionToken)
            try await server.api.expectError(.notFound, .delete, "/v1/sessions/\(second.session.id)", token: alice.sessionToken)
        }
    }

    @Test("missing, malformed and unknown bearer tokens are all invalid_session")
    func badTokens() async throws {
        try await TestServer.run { server in
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions")
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions", token: "bat_nope")
            try await server.api.expectError(.invalidSession, .get, "/v1/audit", token: "")
            let answer = try await server.api.call(.get, "/v1/sessions", headers: [.authorization: "Basic YWxpY2U6cHc="])
            #expect(answer.errorCode == .invalidSession)
        }
    }
}
