import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// A challenge is single-use, expires, and is bound to its ceremony, its registration and the
/// relying party; every other answer is refused and signs nobody in.
@Suite("Challenge rules")
struct ChallengeRulesTests {
    /// A user with one active registration of `key`.
    private func enrolled(
        _ server: TestServer,
        _ key: SoftwareDeviceKey = .es256()
    ) async throws -> (account: SignInResponse, registration: Registration) {
        let account = try await server.api.newAccount()
        return (account, try await server.api.register(key, token: account.sessionToken))
    }

    /// Expects a refused completion that consumed the challenge and recorded a failure, and
    /// changed nothing else: no session, no registration change.
    private func expectRefused(
        _ server: TestServer,
        _ code: ErrorCode,
        _ body: BiometricSignInRequest,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await server.snapshot()
        try await server.api.expectError(code, .post, "/v1/sessions/biometric", json: body, sourceLocation: sourceLocation)
        let after = try await server.snapshot()
        // The challenge is spent and the failure audited (audit ids advance sqlite_sequence); nothing else moves.
        let allowed = ["spent_challenges", "audit_events", "audit_tallies", "sqlite_sequence"]
        #expect(after.excluding(allowed) == before.excluding(allowed), sourceLocation: sourceLocation)
    }

    @Test("replaying a completed authentication is refused")
    func replayOfCompletedAuthentication() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (_, registration) = try await enrolled(server, key)
            let request = try await server.api.signedAuthentication(key, registrationID: registration.id)
            _ = try await server.api.expect(.ok, SignInResponse.self, .post, "/v1/sessions/biometric", json: request)
            try await expectRefused(server, .challengeInvalid, request)
        }
    }

    @Test("a challenge answered after it expired is refused")
    func expiredChallenge() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (_, registration) = try await enrolled(server, key)
            let request = try await server.api.signedAuthentication(key, registrationID: registration.id)
            server.clock.advance(seconds: 120)
            try await expectRefused(server, .challengeInvalid, request)
        }
    }

    @Test("a challenge lives exactly its TTL")
    func challengeTTLBoundary() async throws {
        try await TestServer.run(configure: { $0.challengeTTL = .seconds(30) }) { server in
            let key = SoftwareDeviceKey.ed25519()
            let (_, registration) = try await enrolled(server, key)
            let request = try await server.api.signedAuthentication(key, registrationID: registration.id)
            server.clock.advance(seconds: 29.9)
            _ = try await server.api.expect(.ok, SignInResponse.self, .post, "/v1/sessions/biometric", json: request)
        }
    }

    @Test("an expired registration challenge cannot activate the key")
    func expiredRegistrationChallenge() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let start = try await server.api.startRegistration(key, token: account.sessionToken)
            server.clock.advance(seconds: 121)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/biometric/registrations/\(start.registrationID)/verify",
                json: VerifyRegistrationRequest(
                    signature: key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)
                ),
                token: try await server.api.signIn(account.user.username).sessionToken
            )
        }
    }

    @Test("a registration challenge is single-use: a second verify is refused")
    func registrationChallengeSingleUse() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let start = try await server.api.startRegistration(key, token: account.sessionToken)
            let body = VerifyRegistrationRequest(
                signature: key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)
            )
            let path = "/v1/biometric/registrations/\(start.registrationID)/verify"
            _ = try await server.api.expect(.ok, RegistrationResponse.self, .post, path, json: body, token: account.sessionToken)
            try await server.api.expectError(.challengeInvalid, .post, path, json: body, token: account.sessionToken)
        }
    }

    @Test("a signature over another registration's message is refused")
    func challengeAnsweredForAnotherRegistration() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (account, registration) = try await enrolled(server, key)
            let other = try await server.api.register(.es256(), token: account.sessionToken)
            let challenge = try await server.api.challenge(for: registration.id)
            let signature = key.sign(.authentication, registrationID: other.id, challenge: challenge.challenge.data)
            try await expectRefused(server, .signatureInvalid, BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature))
        }
    }

    @Test("a signature over the registration ceremony's message is refused at sign-in")
    func otherCeremonysMessage() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (_, registration) = try await enrolled(server, key)
            let challenge = try await server.api.challenge(for: registration.id)
            let signature = key.sign(.registration, registrationID: registration.id, challenge: challenge.challenge.data)
            try await expectRefused(server, .signatureInvalid, BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature))
        }
    }

    @Test("an authentication challenge cannot complete a registration")
    func authenticationChallengeAtVerify() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let start = try await server.api.startRegistration(key, token: account.sessionToken)
            // Signing the authentication message with the registration challenge must not activate the key.
            let signature = key.sign(.authentication, registrationID: start.registrationID, challenge: start.challenge.data)
            try await server.api.expectError(
                .signatureInvalid,
                .post,
                "/v1/biometric/registrations/\(start.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: account.sessionToken
            )
            let listed = try await server.api.registrationList(token: account.sessionToken)
            #expect(listed.registrations.map(\.status) == [.pending])
        }
    }

    @Test("a signature naming another relying party is refused")
    func otherRelyingParty() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (_, registration) = try await enrolled(server, key)
            let challenge = try await server.api.challenge(for: registration.id)
            let signature = key.sign(.authentication, rpID: "evil.example", registrationID: registration.id, challenge: challenge.challenge.data)
            try await expectRefused(server, .signatureInvalid, BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature))
        }
    }

    @Test("a signature by another key is refused, and the challenge is spent")
    func signatureByAnotherKey() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (_, registration) = try await enrolled(server, key)
            let challenge = try await server.api.challenge(for: registration.id)
            let forged = SoftwareDeviceKey.es256().sign(.authentication, registrationID: registration.id, challenge: challenge.challenge.data)
            try await expectRefused(server, .signatureInvalid, BiometricSignInRequest(challengeID: challenge.challengeID, signature: forged))
            // Consumed by the failed attempt: even the right signature is too late now.
            let genuine = key.sign(.authentication, registrationID: registration.id, challenge: challenge.challenge.data)
            try await expectRefused(server, .challengeInvalid, BiometricSignInRequest(challengeID: challenge.challengeID, signature: genuine))
        }
    }

    @Test("an Ed25519 registration answered with an ECDSA signature is refused as malformed")
    func ed25519AnsweredWithECDSA() async throws {
        try await TestServer.run { server in
            let (_, registration) = try await enrolled(server, .ed25519())
            let challenge = try await server.api.challenge(for: registration.id)
            let ecdsa = SoftwareDeviceKey.es256().sign(.authentication, registrationID: registration.id, challenge: challenge.challenge.data)
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidSignatureEncoding,
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: challenge.challengeID, signature: ecdsa)
            )
            #expect(try await server.snapshot() == before, "malformed input changes nothing, not even the challenge")
        }
    }

    @Test("malformed signatures are refused before the challenge is touched", arguments: TestVectors.malformedSignatures)
    func malformedSignature(vector: TestVectors.Invalid) async throws {
        try await TestServer.run { server in
            let key = vector.signatureAlgorithm == .es256 ? SoftwareDeviceKey.es256() : .ed25519()
            let (_, registration) = try await enrolled(server, key)
            let challenge = try await server.api.challenge(for: registration.id)
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidSignatureEncoding,
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: challenge.challengeID, signature: Base64URL.decode(vector.signature)!)
            )
            #expect(try await server.snapshot() == before)
            // The challenge survived the malformed attempt and still works.
            let genuine = key.sign(.authentication, registrationID: registration.id, challenge: challenge.challenge.data)
            _ = try await server.api.expect(
                .ok,
                SignInResponse.self,
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: challenge.challengeID, signature: genuine)
            )
        }
    }

    @Test("unknown and foreign challenge ids are challenge_invalid")
    func unknownChallenge() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            _ = try await enrolled(server, key)
            try await expectRefused(
                server,
                .challengeInvalid,
                BiometricSignInRequest(challengeID: "chl_00000000000000000000000000000000", signature: Data(repeating: 1, count: 64))
            )
            try await expectRefused(server, .challengeInvalid, BiometricSignInRequest(challengeID: "", signature: Data()))
        }
    }

    @Test("a forged or altered challenge id is challenge_invalid and writes nothing, not even a spent id; the real one still works")
    func alteredChallengeID() async throws {
        try await TestServer.run { server in
            let key = SoftwareDeviceKey.es256()
            let (account, registration) = try await enrolled(server, key)
            let other = try await server.api.register(.es256(), token: account.sessionToken)
            let challenge = try await server.api.challenge(for: registration.id)
            let signature = key.sign(.authentication, registrationID: registration.id, challenge: challenge.challenge.data)
            let digits = Array(challenge.challengeID.dropFirst(4))
            // One digit changed in the expiry, the random part, the registration and the tag; and
            // the challenge moved to the user's other key with its tag kept.
            var forged = [6, 20, 40, 80].map { position in
                var altered = digits
                altered[position] = altered[position] == "0" ? "1" : "0"
                return "chl_" + String(altered)
            }
            forged.append("chl_" + String(digits[0..<32]) + other.id.dropFirst(4) + String(digits[64...]))
            let before = try await server.snapshot()
            for id in forged {
                try await server.api.expectError(
                    .challengeInvalid,
                    .post,
                    "/v1/sessions/biometric",
                    json: BiometricSignInRequest(challengeID: id, signature: signature)
                )
            }
            #expect(try await server.snapshot() == before)
            _ = try await server.api.expect(
                .ok,
                SignInResponse.self,
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature)
            )
        }
    }

    @Test("challenges are issued only for active registrations")
    func challengeForInactiveRegistration() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let pending = try await server.api.startRegistration(.es256(), token: account.sessionToken)
            let before = try await server.snapshot()
            for id in [pending.registrationID, "reg_00000000000000000000000000000000", "nonsense"] {
                try await server.api.expectError(
                    .registrationNotFound,
                    .post,
                    "/v1/biometric/challenges",
                    json: CreateChallengeRequest(registrationID: id)
                )
            }
            #expect(try await server.snapshot() == before)
        }
    }
}
