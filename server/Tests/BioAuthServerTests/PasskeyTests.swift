import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer
@testable import BioAuthWebAuthn

/// Passkeys on the server, over real HTTP on both databases: adding one after step-up, signing in
/// with it (discoverable or username-first), and every way a ceremony can be abused refused with
/// its code and nothing changed but the spent challenge.
@Suite("Passkeys")
struct PasskeyTests {
    @Test("a passkey is added after step-up, listed with its AAGUID and flags, and signs in without a username; the session says passkey")
    func addAndSignIn() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, authenticator, passkey) = try await api.newAccountWithPasskey()
            #expect(passkey.id.hasPrefix("pk_") && passkey.label == "laptop" && passkey.algorithm == -7 && !passkey.backupEligible)
            #expect(passkey.aaguid == authenticator.aaguid.uuidString.lowercased() && passkey.lastUsedAt == nil)
            #expect(passkey.credentialID.data == Data(authenticator.credentials[0].id))
            let listed = try await api.expect(.ok, PasskeyListResponse.self, .get, Endpoint.listPasskeys.path(), token: account.sessionToken)
            #expect(listed.passkeys.map(\.id) == [passkey.id])

            let signedIn = try await api.passkeySignIn(authenticator).decode(SignInResponse.self)
            #expect(signedIn.user.id == account.user.id)
            #expect(signedIn.session.authentication == Session.Authentication(method: .passkey, passkeyID: passkey.id))
            let after = try await api.expect(.ok, PasskeyListResponse.self, .get, Endpoint.listPasskeys.path(), token: account.sessionToken)
            #expect(after.passkeys[0].lastUsedAt != nil)
            let events = try await api.expect(.ok, AuditEventListResponse.self, .get, Endpoint.listAuditEvents.path(), token: account.sessionToken)
                .events
            #expect(events.contains { $0.type == .passkeySignIn && $0.outcome == .success && $0.passkeyID == passkey.id })
            #expect(events.contains { $0.type == .passkeyRegistered && $0.passkeyID == passkey.id })
        }
    }

    @Test("ES256, Ed25519 and RS256 passkeys all register and sign in", arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func algorithms(_ algorithm: COSEAlgorithm) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
            authenticator.algorithm = algorithm
            let passkey = try await server.api.addPasskey(authenticator, token: account.sessionToken)
            #expect(passkey.algorithm == Int(algorithm.rawValue))
            #expect(try await server.api.passkeySignIn(authenticator).status == .ok)
        }
    }

    @Test("adding a passkey needs a recent sign-in")
    func stepUp() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            server.clock.advance(seconds: 6 * 60)
            try await server.api.expectError(
                .reauthenticationRequired,
                .post,
                Endpoint.createPasskeyRegistrationOptions.path(),
                token: account.sessionToken
            )
            try await server.api.call(
                .post,
                Endpoint.reauthenticate.path(),
                json: ReauthenticateRequest(password: "correct horse battery"),
                token: account.sessionToken
            )
            try await server.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: account.sessionToken)
        }
    }

    @Test(
        "a username-first sign-in lists only that user's passkeys; an unknown username gets a stable decoy; another user's passkey cannot answer it"
    )
    func usernameFirst() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (alice, aliceKey, alicePasskey) = try await api.newAccountWithPasskey()
            let (_, bobKey, _) = try await api.newAccountWithPasskey()
            let options = try await api.passkeyAuthenticationOptions(username: alice.user.username)
            #expect(options.publicKey.allowCredentials.map(\.id) == [alicePasskey.credentialID])
            #expect(options.publicKey.userVerification == "required" && options.publicKey.rpId == LoopbackServer.relyingPartyID)

            let decoy1 = try await api.passkeyAuthenticationOptions(username: "nobody-here")
            let decoy2 = try await api.passkeyAuthenticationOptions(username: "Nobody-Here")
            #expect(!decoy1.publicKey.allowCredentials.isEmpty && decoy1.publicKey.allowCredentials == decoy2.publicKey.allowCredentials)
            let passkeyless = try await api.newAccount()
            #expect(!(try await api.passkeyAuthenticationOptions(username: passkeyless.user.username).publicKey.allowCredentials.isEmpty))

            let answer = try await api.call(
                .post,
                Endpoint.signInWithPasskey.path(),
                json: PasskeySignInRequest(
                    ceremonyID: options.ceremonyID,
                    credential: try bobKey.authenticate(options.publicKey, credentialID: bobKey.credentials[0].id)
                )
            )
            #expect(answer.errorCode == .passkeyInvalid)
            #expect(try await api.passkeySignIn(aliceKey, username: alice.user.username).status == .ok)
        }
    }

    @Test("a ceremony's challenge serves one attempt: a replayed assertion, a second answer and an expired ceremony are challenge_invalid")
    func singleUse() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (_, authenticator, _) = try await api.newAccountWithPasskey()
            let ceremony = try await api.passkeyAuthenticationOptions()
            let body = PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.authenticate(ceremony.publicKey))
            #expect(try await api.call(.post, Endpoint.signInWithPasskey.path(), json: body).status == .ok)
            try await api.expectError(.challengeInvalid, .post, Endpoint.signInWithPasskey.path(), json: body)
            let fresh = PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.authenticate(ceremony.publicKey))
            try await api.expectError(.challengeInvalid, .post, Endpoint.signInWithPasskey.path(), json: fresh)

            let late = try await api.passkeyAuthenticationOptions()
            server.clock.advance(seconds: 121)
            try await api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.signInWithPasskey.path(),
                json: PasskeySignInRequest(ceremonyID: late.ceremonyID, credential: try authenticator.authenticate(late.publicKey))
            )
        }
    }

    @Test("a ceremony is bound to its kind and its session: a registration ceremony cannot sign in, nor be finished by another session")
    func ceremonyBinding() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, authenticator, _) = try await api.newAccountWithPasskey()
            let registration = try await api.passkeyRegistrationOptions(token: account.sessionToken)
            let request = PublicKeyCredentialRequestOptionsJSON(
                challenge: registration.publicKey.challenge,
                timeout: 1000,
                rpId: LoopbackServer.relyingPartyID,
                allowCredentials: [],
                userVerification: "required"
            )
            try await api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.signInWithPasskey.path(),
                json: PasskeySignInRequest(ceremonyID: registration.ceremonyID, credential: try authenticator.authenticate(request))
            )
            let other = try await api.signIn(account.user.username)
            let second = SoftwareAuthenticator(origin: APIClient.origin)
            try await api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.registerPasskey.path(),
                json: RegisterPasskeyRequest(ceremonyID: registration.ceremonyID, credential: try second.register(registration.publicKey)),
                token: other.sessionToken
            )
        }
    }

    @Test(
        "forged responses (no user verification, no presence, a bogus signature, another origin) are refused and change nothing but the spent challenge"
    )
    func forgeries() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (_, authenticator, _) = try await api.newAccountWithPasskey()
            let forgeries: [(String, (SoftwareAuthenticator) -> Void, ErrorCode)] = [
                ("UV clear", { $0.userVerified = false }, .userVerificationRequired),
                ("UP clear", { $0.userPresent = false }, .passkeyInvalid),
                ("other origin", { $0.origin = "https://bank.example.evil.test" }, .passkeyInvalid),
            ]
            for (name, forge, code) in forgeries {
                let probe = authenticator
                let saved = (probe.userVerified, probe.userPresent, probe.origin)
                forge(probe)
                let ceremony = try await api.passkeyAuthenticationOptions()
                let body = PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try probe.authenticate(ceremony.publicKey))
                (probe.userVerified, probe.userPresent, probe.origin) = saved
                let before = try await server.snapshot()
                #expect(try await api.call(.post, Endpoint.signInWithPasskey.path(), json: body).errorCode == code, "\(name)")
                let ignored = ["webauthn_challenges", "audit_tallies"]
                #expect(try await server.snapshot().excluding(ignored) == before.excluding(ignored), "\(name)")
            }
            let ceremony = try await api.passkeyAuthenticationOptions()
            var bogus = PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.authenticate(ceremony.publicKey))
            bogus.credential.response.signature = Base64URLBytes([0])
            try await api.expectError(.passkeyInvalid, .post, Endpoint.signInWithPasskey.path(), json: bogus)
            #expect(try await api.passkeySignIn(authenticator).status == .ok, "the passkey still works")
        }
    }

    @Test("a counter that goes back is refused and recorded as a possible clone")
    func clone() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, authenticator, passkey) = try await api.newAccountWithPasskey()
            #expect(try await api.passkeySignIn(authenticator).status == .ok)  // counter 2
            authenticator.setSignCount(0, of: authenticator.credentials[0].id)  // the clone says 1
            try #require(try await api.passkeySignIn(authenticator).errorCode == .passkeyInvalid)
            let events = try await api.expect(.ok, AuditEventListResponse.self, .get, Endpoint.listAuditEvents.path(), token: account.sessionToken)
                .events
            #expect(events.contains { $0.type == .passkeyCloneSuspected && $0.passkeyID == passkey.id })
        }
    }

    @Test("an authenticator without a counter (always 0) keeps signing in")
    func counterless() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
            authenticator.counterStep = 0
            try await server.api.addPasskey(authenticator, token: account.sessionToken)
            for _ in 0..<2 { #expect(try await server.api.passkeySignIn(authenticator).status == .ok) }
        }
    }

    @Test("a credential registered twice is 409 duplicate_registration; excludeCredentials names the account's passkeys")
    func duplicates() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, authenticator, passkey) = try await api.newAccountWithPasskey()
            let ceremony = try await api.passkeyRegistrationOptions(token: account.sessionToken)
            #expect(ceremony.publicKey.excludeCredentials.map(\.id) == [passkey.credentialID])
            // An authenticator that ignores excludeCredentials and answers with the same credential id.
            var response = try SoftwareAuthenticator(origin: APIClient.origin).register(
                PublicKeyCredentialCreationOptionsJSON(
                    rp: ceremony.publicKey.rp,
                    user: ceremony.publicKey.user,
                    challenge: ceremony.publicKey.challenge,
                    pubKeyCredParams: ceremony.publicKey.pubKeyCredParams,
                    timeout: 1000,
                    excludeCredentials: [],
                    authenticatorSelection: ceremony.publicKey.authenticatorSelection,
                    attestation: "none"
                )
            )
            response = try Self.withCredentialID(authenticator.credentials[0].id, response)
            try await api.expectError(
                .duplicateRegistration,
                .post,
                Endpoint.registerPasskey.path(),
                json: RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: response),
                token: account.sessionToken
            )
            #expect(
                try await api.expect(.ok, PasskeyListResponse.self, .get, Endpoint.listPasskeys.path(), token: account.sessionToken).passkeys.count
                    == 1
            )
        }
    }

    @Test("removing a passkey ends the sessions it signed in (not the caller's) and its next sign-in is passkey_unknown")
    func removal() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, authenticator, passkey) = try await api.newAccountWithPasskey()
            let viaPasskey = try await api.passkeySignIn(authenticator).decode(SignInResponse.self)
            let viaPasskey2 = try await api.passkeySignIn(authenticator).decode(SignInResponse.self)
            try await api.call(.delete, Endpoint.deletePasskey.path(passkey.id), token: viaPasskey.sessionToken)
            try await api.expectError(.invalidSession, .get, Endpoint.getCurrentSession.path(), token: viaPasskey2.sessionToken)
            #expect(try await api.call(.get, Endpoint.getCurrentSession.path(), token: viaPasskey.sessionToken).status == .ok)
            #expect(try await api.call(.get, Endpoint.getCurrentSession.path(), token: account.sessionToken).status == .ok)
            #expect(try await api.passkeySignIn(authenticator).errorCode == .passkeyUnknown)
            try await api.expectError(.notFound, .delete, Endpoint.deletePasskey.path(passkey.id), token: account.sessionToken)
            // A removed passkey's credential id stays taken.
            let ceremony = try await api.passkeyRegistrationOptions(token: account.sessionToken)
            let again = try Self.withCredentialID(
                authenticator.credentials[0].id,
                try SoftwareAuthenticator(origin: APIClient.origin).register(ceremony.publicKey)
            )
            try await api.expectError(
                .duplicateRegistration,
                .post,
                Endpoint.registerPasskey.path(),
                json: RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: again),
                token: account.sessionToken
            )
        }
    }

    @Test("a passkey and a device registration are renamed by their owner only; the rename is audited")
    func rename() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (account, _, passkey) = try await api.newAccountWithPasskey()
            let renamed = try await api.expect(
                .ok,
                PasskeyResponse.self,
                .patch,
                Endpoint.renamePasskey.path(passkey.id),
                json: RenameRequest(label: "work laptop"),
                token: account.sessionToken
            )
            #expect(renamed.passkey.label == "work laptop")
            try await api.expectError(
                .invalidRequest,
                .patch,
                Endpoint.renamePasskey.path(passkey.id),
                json: RenameRequest(label: String(repeating: "x", count: 65)),
                token: account.sessionToken
            )
            let stranger = try await api.newAccount()
            try await api.expectError(
                .notFound,
                .patch,
                Endpoint.renamePasskey.path(passkey.id),
                json: RenameRequest(label: "mine"),
                token: stranger.sessionToken
            )

            let registration = try await api.register(.es256(), token: account.sessionToken)
            let device = try await api.expect(
                .ok,
                RegistrationResponse.self,
                .patch,
                Endpoint.renameRegistration.path(registration.id),
                json: RenameRequest(label: "old phone"),
                token: account.sessionToken
            )
            #expect(device.registration.label == "old phone")
            try await api.expectError(
                .registrationNotFound,
                .patch,
                Endpoint.renameRegistration.path(registration.id),
                json: RenameRequest(label: "mine"),
                token: stranger.sessionToken
            )
            let events = try await api.expect(.ok, AuditEventListResponse.self, .get, Endpoint.listAuditEvents.path(), token: account.sessionToken)
                .events
            #expect(events.contains { $0.type == .passkeyRenamed && $0.passkeyID == passkey.id })
            #expect(events.contains { $0.type == .registrationRenamed && $0.registrationID == registration.id })
        }
    }

    @Test("an account holds at most --max-registrations passkeys")
    func limit() async throws {
        try await TestServer.run(configure: { $0.maxRegistrationsPerUser = 2 }) { server in
            let account = try await server.api.newAccount()
            for _ in 0..<2 { try await server.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: account.sessionToken) }
            try await server.api.expectError(
                .tooManyRegistrations,
                .post,
                Endpoint.createPasskeyRegistrationOptions.path(),
                token: account.sessionToken
            )
        }
    }

    @Test("the passkey cap is checked again where a passkey is stored: ceremonies opened under it cannot all finish")
    func limitWhereStored() async throws {
        try await TestServer.run(configure: { $0.maxRegistrationsPerUser = 2 }) { server in
            let account = try await server.api.newAccount()
            let ceremonies = [
                try await server.api.passkeyRegistrationOptions(token: account.sessionToken),
                try await server.api.passkeyRegistrationOptions(token: account.sessionToken),
                try await server.api.passkeyRegistrationOptions(token: account.sessionToken),
            ]
            var answers: [ErrorCode?] = []
            for ceremony in ceremonies {
                let credential = try SoftwareAuthenticator(origin: APIClient.origin).register(ceremony.publicKey)
                answers.append(
                    try await server.api.call(
                        .post,
                        Endpoint.registerPasskey.path(),
                        json: RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: credential),
                        token: account.sessionToken
                    ).errorCode
                )
            }
            #expect(answers == [nil, nil, .tooManyRegistrations])
            let listed = try await server.api.expect(.ok, PasskeyListResponse.self, .get, Endpoint.listPasskeys.path(), token: account.sessionToken)
            #expect(listed.passkeys.count == 2)
        }
    }

    @Test("a username-first ceremony for an unknown or passkey-less username refuses any passkey exactly as another user's passkey is refused")
    func unknownUsernameRefusesAlike() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (owner, prober, _) = try await api.newAccountWithPasskey()
            let alice = try await api.newAccountWithPasskey()
            let passkeyless = try await api.newAccount()
            var answers: [String: APIResponse] = [:]
            for (name, username) in [
                ("another user's", alice.account.user.username), ("unknown", "nobody-\(UUID().uuidString.prefix(8))"),
                ("passkey-less", passkeyless.user.username),
            ] {
                let ceremony = try await api.passkeyAuthenticationOptions(username: username)
                let credential = try prober.authenticate(ceremony.publicKey, credentialID: prober.credentials[0].id)
                answers[name] = try await api.call(
                    .post,
                    Endpoint.signInWithPasskey.path(),
                    json: PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: credential)
                )
            }
            let reference = try #require(answers["another user's"])
            #expect(reference.status == .badRequest && reference.errorCode == .passkeyInvalid)
            for (name, answer) in answers {
                #expect(
                    answer.status == reference.status && answer.body == reference.body,
                    "\(name): \(String(decoding: answer.body, as: UTF8.self))"
                )
            }
            // Each refusal is counted alike, on the prober's own trail; no session was made.
            let events = try await api.expect(.ok, AuditEventListResponse.self, .get, Endpoint.listAuditEvents.path(), token: owner.sessionToken)
                .events
            #expect(events.first { $0.type == .passkeySignIn && $0.outcome == .failure }?.count == 3)
            #expect(!events.contains { $0.type == .passkeySignIn && $0.outcome == .success })
        }
    }

    @Test(
        "a decoy list looks like a real one: stable per username, one to three credentials of real lengths with sorted transports, different per username"
    )
    func decoyLooksReal() async throws {
        try await TestServer.run { server in
            var lists: [[PublicKeyCredentialDescriptorJSON]] = []
            for index in 0..<40 {
                let username = "probe-\(index)"
                let first = try await server.api.passkeyAuthenticationOptions(username: username).publicKey.allowCredentials
                #expect(try await server.api.passkeyAuthenticationOptions(username: username.uppercased()).publicKey.allowCredentials == first)
                lists.append(first)
            }
            #expect(Set(lists.map(\.count)).isSubset(of: [1, 2, 3]) && Set(lists.map(\.count)).count > 1)
            let descriptors = lists.flatMap { $0 }
            #expect(Set(descriptors.map(\.id.data.count)).isSubset(of: [16, 20, 32, 64]) && Set(descriptors.map(\.id.data.count)).count > 2)
            #expect(descriptors.allSatisfy { ($0.transports ?? []) == ($0.transports ?? []).sorted() && !($0.transports ?? []).isEmpty })
            #expect(Set(descriptors.map(\.id)).count == descriptors.count, "no id repeats across usernames")
            // A real account's list is sorted the same way.
            let (account, _, _) = try await server.api.newAccountWithPasskey()
            let real = try await server.api.passkeyAuthenticationOptions(username: account.user.username).publicKey.allowCredentials
            #expect(real.allSatisfy { ($0.transports ?? []) == ($0.transports ?? []).sorted() })
        }
    }

    @Test("/.well-known/webauthn lists the configured origins")
    func relatedOrigins() async throws {
        try await TestServer.run(configure: { $0.webAuthnOrigins = ["https://bank.example", "https://login.bank.example"] }) { server in
            let answer = try await server.api.expect(.ok, RelatedOriginsResponse.self, .get, Endpoint.getRelatedOrigins.path())
            #expect(answer.origins == ["https://bank.example", "https://login.bank.example"])
        }
    }

    @Test("of many racing answers to one ceremony, exactly one signs in")
    func race() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (_, authenticator, _) = try await api.newAccountWithPasskey()
            let ceremony = try await api.passkeyAuthenticationOptions()
            let body = PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.authenticate(ceremony.publicKey))
            let parallel = try ParallelClient(server)
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<12 { group.addTask { UInt(try await parallel.call(.post, Endpoint.signInWithPasskey.path(), json: body).status.code) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 401 }.count == 11)
        }
    }

    /// `response` changed to name `credentialID` (as an authenticator that ignores
    /// `excludeCredentials`, or a copy of a known credential, would); `none` attestation.
    static func withCredentialID(_ credentialID: [UInt8], _ response: RegistrationResponseJSON) throws -> RegistrationResponseJSON {
        let object = try CBORDecoder().decode(Array(response.response.attestationObject.data))
        guard case .bytes(var authData)? = object["authData"] else { throw CBORError(.truncated, at: 0) }
        let oldLength = Int(authData[53]) << 8 | Int(authData[54])
        authData.replaceSubrange(55..<(55 + oldLength), with: credentialID)
        authData[53] = UInt8(credentialID.count >> 8)
        authData[54] = UInt8(credentialID.count & 0xFF)
        var changed = response
        changed.rawId = Base64URLBytes(credentialID)
        changed.id = changed.rawId.base64URL
        changed.response.authenticatorData = Base64URLBytes(authData)
        changed.response.attestationObject = Base64URLBytes(
            CBOREncoder.encode(
                .map([
                    .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])), .init(.text("authData"), .bytes(authData)),
                ])
            )
        )
        return changed
    }
}
