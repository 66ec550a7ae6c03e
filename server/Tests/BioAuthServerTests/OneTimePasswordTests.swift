import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// The one-time password a support desk sets (`bioauth admin recover` or `reset-password`): it
/// signs in once, expires, and its session is short and can only set a new password.
@Suite("One-time passwords")
struct OneTimePasswordTests {
    /// A new account whose password an operator reset: the user and the one-time password.
    private static func resetAccount(_ server: TestServer) async throws -> (user: User, password: String) {
        let account = try await server.api.newAccount()
        let reset = try await server.administration.resetPassword(try await server.administration.account(account.user.username))
        return (account.user, reset.password)
    }

    @Test("a one-time password signs in once: the second sign-in with it is invalid_credentials, and the old password never")
    func signsInOnce() async throws {
        try await TestServer.run { server in
            let (user, password) = try await Self.resetAccount(server)
            let first = try await server.api.signIn(user.username, password: password)
            #expect(first.session.passwordChangeRequired)
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: password)
            )
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: "correct horse battery")
            )
        }
    }

    @Test("a one-time password expires after --one-time-password-hours (24 by default)")
    func expires() async throws {
        try await TestServer.run { server in
            let (user, password) = try await Self.resetAccount(server)
            server.clock.advance(seconds: 24 * 60 * 60)
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: password)
            )
        }
        try await TestServer.run(configure: { $0.oneTimePasswordLifetime = .seconds(3600) }) { server in
            let (user, password) = try await Self.resetAccount(server)
            server.clock.advance(seconds: 3599)
            #expect(try await server.api.signIn(user.username, password: password).session.passwordChangeRequired)
        }
    }

    @Test("its restricted session lasts at most 15 minutes, whatever it asks for, and may only change the password, look at itself and sign out")
    func restrictedSession() async throws {
        try await TestServer.run(configure: { $0.maxSessionMinutes = 43_200 }) { server in
            let (user, password) = try await Self.resetAccount(server)
            let signedIn = try await server.api.signIn(user.username, password: password, minutes: 43_200)
            #expect(signedIn.session.expiresAt.timeIntervalSince(signedIn.session.createdAt) == 15 * 60)
            try await server.api.expectError(
                .passwordChangeRequired,
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(password: password),
                token: signedIn.sessionToken
            )
            server.clock.advance(seconds: 15 * 60)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: signedIn.sessionToken)
        }
    }

    @Test("the restricted session sets a new password without the spent one-time password; the session is then an ordinary one")
    func changesPassword() async throws {
        try await TestServer.run { server in
            let (user, password) = try await Self.resetAccount(server)
            let signedIn = try await server.api.signIn(user.username, password: password)
            server.clock.advance(seconds: 10 * 60)  // past the step-up window: the restricted session needs none
            try await server.api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: nil, newPassword: "my own new password"),
                token: signedIn.sessionToken
            )
            let current = try await server.api.expect(.ok, CurrentSessionResponse.self, .get, "/v1/sessions/current", token: signedIn.sessionToken)
            #expect(!current.session.passwordChangeRequired)
            _ = try await server.api.signIn(user.username, password: "my own new password")
            try await server.api.expectError(
                .invalidCredentials,
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: user.username, password: password)
            )
        }
    }

    @Test("the account page's session and sign-out work for a one-time-password session")
    func accountPage() async throws {
        try await TestServer.run { server in
            let (user, password) = try await Self.resetAccount(server)
            let answer = try await server.api.call(
                .post,
                Endpoint.webSignInWithPassword.path(),
                json: PasswordSignInRequest(username: user.username, password: password),
                headers: BrowserSessionTests.page
            )
            try #require(answer.status == .ok)
            let web = try answer.decode(WebSessionResponse.self)
            #expect(web.session.passwordChangeRequired)
            let cookie = try #require(answer.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let current = try await server.api.call(.get, Endpoint.getWebSession.path(), headers: [.cookie: cookie])
            #expect(current.status == .ok)
            #expect(try current.decode(WebSessionResponse.self).session.passwordChangeRequired)
            let signOut = try await server.api.call(
                .post,
                Endpoint.webSignOut.path(),
                headers: [.cookie: cookie, .origin: APIClient.origin, BrowserSession.csrfHeader: web.csrfToken]
            )
            #expect(signOut.status == .noContent)
            try await server.api.expectError(.invalidSession, .get, "/v1/sessions/current", token: String(cookie.dropFirst("bioauth_session=".count)))
        }
    }
}
