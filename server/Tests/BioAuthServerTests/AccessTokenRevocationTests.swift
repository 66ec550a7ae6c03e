import BioAuthProtocol
import BioAuthTesting
import Foundation
import Logging
import Testing

@testable import BioAuthServer

/// Revocation stays real: every way a session ends stops new access tokens at once (the minting
/// call authenticates the session as every call does); tokens already issued live at most their
/// lifetime. And no token or signing key is ever logged.
@Suite("Access tokens after revocation")
struct AccessTokenRevocationTests {
    /// Mints for `token`, runs `revoke`, and expects the next mint refused with 401 `invalid_session`.
    private static func revocationStopsMinting(
        _ server: TestServer,
        token: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ revoke: () async throws -> Void
    ) async throws {
        _ = try await server.api.accessToken(token: token, sourceLocation: sourceLocation)
        try await revoke()
        try await server.api.expectError(.invalidSession, .post, Endpoint.createAccessToken.path(), token: token, sourceLocation: sourceLocation)
    }

    @Test("signing out stops new tokens at once")
    func signOut() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            try await Self.revocationStopsMinting(server, token: account.sessionToken) {
                let status = try await server.api.call(.delete, Endpoint.signOut.path(), token: account.sessionToken).status
                #expect(status == .noContent)
            }
        }
    }

    @Test("signing out everywhere else stops the other sessions' tokens at once")
    func signOutElsewhere() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let other = try await server.api.signIn(account.user.username)
            try await Self.revocationStopsMinting(server, token: other.sessionToken) {
                let status = try await server.api.call(.delete, Endpoint.signOutElsewhere.path(), token: account.sessionToken).status
                #expect(status == .noContent)
            }
            _ = try await server.api.accessToken(token: account.sessionToken)
        }
    }

    @Test("a password change stops the other sessions' tokens at once")
    func passwordChange() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let other = try await server.api.signIn(account.user.username)
            try await Self.revocationStopsMinting(server, token: other.sessionToken) {
                let change = ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "a brand new password")
                let status = try await server.api.call(.put, Endpoint.changePassword.path(), json: change, token: account.sessionToken).status
                #expect(status == .noContent)
            }
        }
    }

    @Test("an operator's recovery stops every session's tokens at once")
    func recovery() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            try await Self.revocationStopsMinting(server, token: account.sessionToken) {
                _ = try await server.administration.recover(try await server.administration.account(account.user.id))
            }
        }
    }

    @Test("revoking a device key (an enrollment change) stops the tokens of the sessions it signed in, at once")
    func enrollmentChange() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey(.es256())
            let biometric = try await server.api.biometricSignIn(key, registrationID: registration.id)
            try await Self.revocationStopsMinting(server, token: biometric.sessionToken) {
                let path = Endpoint.deleteRegistration.path(registration.id)
                let status = try await server.api.call(.delete, path, token: account.sessionToken).status
                #expect(status == .noContent)
            }
            _ = try await server.api.accessToken(token: account.sessionToken)
        }
    }

    @Test("an expired session gets no new token, and a token never outlives its lifetime")
    func expiry() async throws {
        try await TestServer.run { server in
            let account = try await server.api.signIn(try await server.api.signUp().username, minutes: 5)
            let token = try #require(ParsedAccessToken(try await server.api.accessToken(token: account.sessionToken).accessToken))
            #expect((token.claims["exp"] as? Int ?? .max) <= Int(server.clock.now.timeIntervalSince1970) + 300)
            try await Self.revocationStopsMinting(server, token: account.sessionToken) { server.clock.advance(seconds: 5 * 60) }
        }
    }

    @Test("nothing logged, at any level, holds an access token, a signing key's private half or its sealed form")
    func logsHoldNoTokenOrKey() async throws {
        let records = LogRecords()
        var logger = Logger(label: "bioauth-test", factory: { _ in RecordingLogHandler(records: records) })
        logger.logLevel = .trace
        let secrets = try await TestServer.run(logger: logger) { server in
            let account = try await server.api.newAccount()
            var tokens: [String] = []
            for _ in 0..<2 { tokens.append(try await server.api.accessToken(token: account.sessionToken).accessToken) }
            _ = try await server.server.signingKeyAdministration.rotate()
            server.clock.advance(seconds: 360)
            tokens.append(try await server.api.accessToken(token: account.sessionToken).accessToken)
            _ = try await server.server.signingKeyAdministration.retire(kid: try #require(ParsedAccessToken(tokens[2])?.kid))
            try await server.api.call(.post, Endpoint.createAccessToken.path(), token: "bat_" + String(repeating: "B", count: 64))
            let keys = try await server.server.services.accessTokens.keys.current()
            let raw = keys.opened.values.map(\.privateRaw)
            let sealed = keys.stored.map(\.sealedPrivateKey)
            #expect(raw.count == 3 && sealed.count == 3)
            return tokens + tokens.flatMap { $0.split(separator: ".").map(String.init) }
                + (raw + sealed).flatMap { [Hex.lowercase($0), Base64URL.encode($0), $0.base64EncodedString()] }
        }
        let logged = records.all.joined(separator: "\n")
        #expect(!logged.isEmpty, "the test must see some log lines")
        #expect(logged.contains("stored a new access-token signing key"))
        for secret in secrets {
            #expect(!logged.contains(secret), "a log line holds \(secret.prefix(6))…")
        }
    }
}
