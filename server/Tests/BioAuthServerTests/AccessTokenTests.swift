import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// Access tokens for the app's own backend: what they say, how they are signed, and that the key
/// set and metadata lead a verifier to the key. Signatures are checked by ``ParsedAccessToken``
/// with swift-crypto, apart from the server's signing code.
@Suite("Access tokens")
struct AccessTokenTests {
    @Test("a signed-in session gets an ES256 at+jwt that the key set verifies, with exactly the registered claims")
    func mintedTokenVerifies() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let answer = try await server.api.accessToken(token: account.sessionToken)
            let token = try #require(ParsedAccessToken(answer.accessToken))
            #expect(token.header.count == 3)
            #expect(token.header["alg"] as? String == "ES256")
            #expect(token.header["typ"] as? String == "at+jwt")
            #expect(token.verifies(with: try await server.api.keySet()))
            let now = Int(server.clock.now.timeIntervalSince1970)
            let claims = token.claims
            #expect(Set(claims.keys) == ["iss", "sub", "aud", "iat", "nbf", "exp", "jti", "sid", "amr", "auth_time", "step_up_at"])
            #expect(claims["iss"] as? String == "https://\(LoopbackServer.relyingPartyID)")
            #expect(claims["aud"] as? String == "https://\(LoopbackServer.relyingPartyID)")
            #expect(claims["sub"] as? String == account.user.id)
            #expect(claims["sid"] as? String == account.session.id)
            #expect(claims["iat"] as? Int == now && claims["nbf"] as? Int == now && claims["exp"] as? Int == now + 300)
            #expect(claims["amr"] as? [String] == ["pwd"])
            #expect(claims["auth_time"] as? Int == Int(account.session.authenticatedAt.timeIntervalSince1970))
            #expect(claims["step_up_at"] as? Int == Int(account.session.authenticatedAt.timeIntervalSince1970))
            #expect(answer.tokenType == "Bearer" && answer.expiresIn == 300)
            #expect(answer.expiresAt == Date(timeIntervalSince1970: TimeInterval(now + 300)))
            let again = try #require(ParsedAccessToken(try await server.api.accessToken(token: account.sessionToken).accessToken))
            #expect(again.claims["jti"] as? String != claims["jti"] as? String)
            // A tampered payload or signature no longer verifies.
            var forged = token
            forged.signingInput = Data(answer.accessToken.split(separator: ".")[0].utf8) + Data(".e30".utf8)
            #expect(!forged.verifies(with: try await server.api.keySet()))
        }
    }

    @Test("an operator's EdDSA signs Ed25519 tokens, and the key set lists an OKP key for them")
    func edDSATokens() async throws {
        try await TestServer.run(configure: { $0.accessTokenAlgorithm = .edDSA }) { server in
            let account = try await server.api.newAccount()
            let token = try #require(ParsedAccessToken(try await server.api.accessToken(token: account.sessionToken).accessToken))
            #expect(token.header["alg"] as? String == "EdDSA")
            let keySet = try await server.api.keySet()
            let jwk = try #require((keySet["keys"] as? [[String: Any]])?.first)
            #expect(jwk["kty"] as? String == "OKP" && jwk["crv"] as? String == "Ed25519" && jwk["y"] == nil)
            #expect(jwk["alg"] as? String == "EdDSA" && jwk["use"] as? String == "sig")
            #expect(token.verifies(with: keySet))
        }
    }

    @Test("amr names how the session authenticated: pin+hwk, hwk+user, a passkey as hwk or swk with user, and each re-authentication's factor")
    func authenticationMethods() async throws {
        try await TestServer.run { server in
            func amr(_ sessionToken: String) async throws -> (methods: [String]?, stepUp: Int?) {
                let token = try #require(ParsedAccessToken(try await server.api.accessToken(token: sessionToken).accessToken))
                return (token.claims["amr"] as? [String], token.claims["step_up_at"] as? Int)
            }
            let account = try await server.api.newAccount()
            let pin = try await server.api.setPIN("4921", token: account.sessionToken)
            let pinSession = try await server.api.pinSignIn(pin, pin: "4921").decode(SignInResponse.self)
            let pinToken = try await amr(pinSession.sessionToken)
            #expect(pinToken.methods == ["pin", "hwk"] && pinToken.stepUp == nil)
            server.clock.advance(seconds: 30)
            _ = try await server.api.reauthenticate(password: "correct horse battery", token: pinSession.sessionToken)
            let stepped = try await amr(pinSession.sessionToken)
            #expect(stepped.methods == ["pin", "hwk", "pwd"] && stepped.stepUp == Int(server.clock.now.timeIntervalSince1970))

            let key = SoftwareDeviceKey.es256()
            let registration = try await server.api.register(key, token: account.sessionToken)
            let biometric = try await server.api.biometricSignIn(key, registrationID: registration.id)
            #expect(try await amr(biometric.sessionToken).methods == ["hwk", "user"])

            let (_, bound, _) = try await server.api.newAccountWithPasskey()
            let boundSession = try await server.api.passkeySignIn(bound).decode(SignInResponse.self)
            #expect(try await amr(boundSession.sessionToken).methods == ["hwk", "user"])
            let synced = SoftwareAuthenticator(origin: APIClient.origin)
            synced.backupEligible = true
            synced.backedUp = true
            _ = try await server.api.addPasskey(synced, token: try await server.api.newAccount().sessionToken)
            let syncedSession = try await server.api.passkeySignIn(synced).decode(SignInResponse.self)
            #expect(try await amr(syncedSession.sessionToken).methods == ["swk", "user"])
        }
    }

    @Test("minting writes nothing to the database")
    func mintingWritesNothing() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            for _ in 0..<3 {
                server.clock.advance(seconds: 1)
                _ = try await server.api.accessToken(token: account.sessionToken)
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("minting reads the session once: the bearer check's lookup carries what the token says")
    func mintingReadsTheSessionOnce() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            _ = try await server.api.accessToken(token: account.sessionToken)
            let before = Self.databaseReads(server)
            for _ in 0..<3 { _ = try await server.api.accessToken(token: account.sessionToken) }
            #expect(Self.databaseReads(server) - before == 3)
        }
    }

    /// Reads the server has waited for so far (`bioauth_database_wait_seconds{work="read"}`'s count).
    private static func databaseReads(_ server: TestServer) -> Int {
        var buffer: [UInt8] = []
        server.server.metrics.registry.emit(into: &buffer)
        let prefix = #"bioauth_database_wait_seconds_count{work="read"} "#
        let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test("a session signed in with a one-time password gets no token (403 password_change_required)")
    func oneTimePasswordSessionGetsNone() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let oneTime = try await server.administration.resetPassword(try await server.administration.account(user.username)).password
            let restricted = try await server.api.signIn(user.username, password: oneTime).sessionToken
            try await server.api.expectError(.passwordChangeRequired, .post, Endpoint.createAccessToken.path(), token: restricted)
        }
    }

    @Test("no session, a malformed or unknown bearer token, or a request body changes nothing: 401 invalid_session, never a token")
    func hostileMintingRequests() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            let path = Endpoint.createAccessToken.path()
            try await server.api.expectError(.invalidSession, .post, path)
            try await server.api.expectError(.invalidSession, .post, path, token: "bat_" + String(repeating: "A", count: 64))
            try await server.api.expectError(.invalidSession, .post, path, token: "not a token")
            let accessToken = try await server.api.accessToken(token: account.sessionToken).accessToken
            // An access token is not a session token: BioAuth takes only the session's.
            try await server.api.expectError(.invalidSession, .post, path, token: accessToken)
            try await server.api.expectError(.invalidSession, .get, Endpoint.getCurrentSession.path(), token: accessToken)
            let withBody = try await server.api.call(.post, path, raw: Data(#"{"aud":"elsewhere","sub":"usr_x"}"#.utf8), token: account.sessionToken)
            let token = try #require(ParsedAccessToken(try withBody.decode(AccessTokenResponse.self).accessToken))
            #expect(token.claims["sub"] as? String == account.user.id && token.claims["aud"] as? String == "https://bank.example")
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("the configured issuer, audiences and lifetime are what the token, the metadata and the answer say; both documents are cacheable")
    func configuredIssuerAudiencesLifetime() async throws {
        try await TestServer.run(configure: {
            $0.issuer = "https://auth.bank.example"
            $0.accessTokenAudiences = ["https://api.bank.example", "payments"]
            $0.accessTokenLifetime = .seconds(600)
        }) { server in
            let account = try await server.api.newAccount()
            let answer = try await server.api.accessToken(token: account.sessionToken)
            let token = try #require(ParsedAccessToken(answer.accessToken))
            #expect(token.claims["iss"] as? String == "https://auth.bank.example")
            #expect(token.claims["aud"] as? [String] == ["https://api.bank.example", "payments"])
            #expect((token.claims["exp"] as? Int ?? 0) - (token.claims["iat"] as? Int ?? 0) == 600 && answer.expiresIn == 600)
            let metadata = try await server.api.call(.get, Endpoint.getAuthorizationServerMetadata.path())
            let document = try #require(try JSONSerialization.jsonObject(with: metadata.body) as? [String: Any])
            #expect(document["issuer"] as? String == "https://auth.bank.example")
            #expect(document["jwks_uri"] as? String == "https://auth.bank.example/.well-known/jwks.json")
            let keySet = try await server.api.call(.get, Endpoint.getKeySet.path())
            for answer in [metadata, keySet] {
                #expect(answer.headers[.cacheControl] == "public, max-age=300")
                #expect(answer.headers[.contentType] == "application/json")
            }
            let minted = try await server.api.call(.post, Endpoint.createAccessToken.path(), token: account.sessionToken)
            #expect(minted.headers[.cacheControl] == "no-store")
        }
    }

    @Test("settings: the lifetime is capped at an hour, the issuer must be an https URL, an audience must not be empty")
    func settingsAreChecked() throws {
        func resolve(_ flags: [String: String]) throws(SettingError) -> ServerConfiguration {
            try ServerConfiguration.resolve(flags: flags, environment: [:])
        }
        #expect(throws: SettingError.self) { try resolve(["access-token-lifetime": "3601"]) }
        #expect(throws: SettingError.self) { try resolve(["access-token-lifetime": "0"]) }
        #expect(throws: SettingError.self) { try resolve(["issuer": "http://bank.example"]) }
        #expect(throws: SettingError.self) { try resolve(["issuer": "https://bank.example/?x=1"]) }
        #expect(throws: SettingError.self) { try resolve(["issuer": "https://bank.example/"]) }
        #expect(throws: SettingError.self) { try resolve(["access-token-audience": "a,,b"]) }
        #expect(throws: SettingError.self) { try resolve(["access-token-algorithm": "HS256"]) }
        #expect(throws: SettingError.self) { try resolve(["signing-key-rotation-days": "0"]) }
        let configuration = try resolve(["issuer": "http://localhost:8080", "access-token-audience": "a,b", "access-token-algorithm": "EdDSA"])
        #expect(configuration.accessTokenIssuer == "http://localhost:8080" && configuration.accessTokenAudienceList == ["a", "b"])
        #expect(configuration.accessTokenAlgorithm == .edDSA)
        #expect(ServerConfiguration().accessTokenAudienceList == ["https://localhost"])
    }
}
