import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// How long sessions live: the operator's maximum, the idle timeout, and answers with a session or
/// CSRF token that no cache may keep.
@Suite("Session lifetime")
struct SessionLifetimeTests {
    @Test("a requested lifetime above --session-max-minutes is cut to it; one within it is kept")
    func maximum() async throws {
        try await TestServer.run(configure: { $0.maxSessionMinutes = 120 }) { server in
            let user = try await server.api.signUp()
            let long = try await server.api.signIn(user.username, minutes: 43_200)
            #expect(long.session.expiresAt.timeIntervalSince(long.session.createdAt) == 120 * 60)
            let short = try await server.api.signIn(user.username, minutes: 30)
            #expect(short.session.expiresAt.timeIntervalSince(short.session.createdAt) == 30 * 60)
            server.clock.advance(seconds: 120 * 60)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: long.sessionToken)
        }
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let long = try await server.api.signIn(user.username, minutes: 43_200)
            #expect(long.session.expiresAt.timeIntervalSince(long.session.createdAt) == 24 * 60 * 60, "a day by default")
        }
    }

    @Test("with --session-idle-minutes, a session unused that long ends; each use keeps it alive")
    func idleTimeout() async throws {
        try await TestServer.run(configure: { $0.sessionIdleMinutes = 30 }) { server in
            let user = try await server.api.signUp()
            let used = try await server.api.signIn(user.username, minutes: 240)
            let idle = try await server.api.signIn(user.username, minutes: 240)
            for _ in 0..<3 {
                server.clock.advance(seconds: 20 * 60)
                try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: used.sessionToken)
            }
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: idle.sessionToken)
            server.clock.advance(seconds: 30 * 60)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: used.sessionToken)
        }
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 59 * 60)
            try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: account.sessionToken)
        }
    }

    @Test("every answer that carries a session token or a CSRF token says Cache-Control: no-store")
    func noStore() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, key, registration) = try await api.newAccountWithKey()
            let device = try await api.setPIN("3917", token: account.sessionToken)
            let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
            try await api.addPasskey(authenticator, token: account.sessionToken)
            var answers: [String: APIResponse] = [
                "password": try await api.call(
                    .post,
                    Endpoint.signInWithPassword.path(),
                    json: PasswordSignInRequest(username: account.user.username, password: "correct horse battery")
                ),
                "biometric": try await api.call(
                    .post,
                    Endpoint.signInWithBiometric.path(),
                    json: try await api.signedAuthentication(key, registrationID: registration.id)
                ),
                "pin": try await api.pinSignIn(device, pin: "3917"),
                "passkey": try await api.passkeySignIn(authenticator),
            ]
            let page = try await BrowserSessionTests.signUp(api)
            answers["web session"] = try await api.call(.get, Endpoint.getWebSession.path(), headers: [.cookie: "bioauth_session=\(page.cookie)"])
            answers["web sign-in"] = try await api.call(
                .post,
                Endpoint.webSignInWithPassword.path(),
                json: PasswordSignInRequest(username: page.session.user.username, password: "correct horse battery"),
                headers: BrowserSessionTests.page
            )
            for (name, answer) in answers {
                #expect(answer.status.code < 300, "\(name)")
                #expect(answer.headers[.cacheControl] == "no-store", "\(name)")
            }
        }
    }
}
