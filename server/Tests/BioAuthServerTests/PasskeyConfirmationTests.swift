import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import HTTPTypes
import Testing

@testable import BioAuthServer
@testable import BioAuthWebAuthn

/// Approving a confirmation with a passkey on the account page, over real HTTP on both databases:
/// the ceremony's challenge is the confirmation's message, user verification is required, the
/// ceremony serves nothing but that confirmation in that session, and the approval goes through
/// the account core with a receipt holding the assertion.
@Suite("Confirmations approved with a passkey")
struct PasskeyConfirmationTests {
    /// A signed-in page whose account has one passkey: the cookie's headers for a change (origin
    /// and CSRF token), the session token, the user and the authenticator.
    struct Page {
        var token: String
        var csrf: String
        var user: User
        var authenticator: SoftwareAuthenticator

        var headers: HTTPFields {
            [.cookie: "bioauth_session=\(token)", .origin: APIClient.origin, BrowserSession.csrfHeader: csrf]
        }
    }

    /// Signs up through the page and adds a passkey.
    static func page(_ server: TestServer, userVerified: Bool = true) async throws -> Page {
        let (cookie, _, web) = try await BrowserSessionTests.signUp(server.api)
        let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
        try await server.api.addPasskey(authenticator, token: cookie)
        authenticator.userVerified = userVerified
        return Page(token: cookie, csrf: web.csrfToken, user: web.user, authenticator: authenticator)
    }

    /// `POST /web/confirmations/{id}/passkey-options` from `page`.
    static func options(
        _ server: TestServer,
        _ page: Page,
        _ id: String
    ) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let answer = try await server.api.call(.post, Endpoint.createConfirmationPasskeyOptions.path(id), headers: page.headers)
        try #require(answer.status == .created, "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        return try answer.decode(PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self)
    }

    /// `POST /web/confirmations/{id}/passkey` from `page` with `credential` for `ceremonyID`.
    static func approve(
        _ server: TestServer,
        _ page: Page,
        _ id: String,
        ceremonyID: String,
        credential: AuthenticationResponseJSON
    ) async throws
        -> APIResponse
    {
        try await server.api.call(
            .post,
            Endpoint.approveConfirmationWithPasskey.path(id),
            json: ConfirmationPasskeyRequest(ceremonyID: ceremonyID, credential: credential),
            headers: page.headers
        )
    }

    /// The confirmation as the account lists it.
    static func listed(_ server: TestServer, _ page: Page, _ id: String) async throws -> BioAuthProtocol.Confirmation? {
        try await server.api.expect(.ok, ConfirmationList.self, .get, Endpoint.listConfirmations.path(), token: page.token).confirmations
            .first { $0.id == id }
    }

    @Test("a passkey approves a payment once: the challenge is its message, UV required, its passkeys allowed; the receipt holds the assertion")
    func approves() async throws {
        try await TestServer.run { server in
            let page = try await Self.page(server)
            let pay = try await server.confirmation(for: page.user.id)
            let ceremony = try await Self.options(server, page, pay.id)
            #expect(ceremony.publicKey.userVerification == "required")
            #expect(ceremony.publicKey.allowCredentials.map(\.id.data) == [Data(page.authenticator.credentials[0].id)])
            let challenge = ceremony.publicKey.challenge.data
            let random = challenge.dropLast(34).suffix(32)
            let message = try ConfirmationMessage(
                relyingPartyID: LoopbackServer.relyingPartyID,
                registrationID: "",
                challenge: Data(random),
                detailsHash: pay.details.hash(confirmationID: pay.id)
            ).encoded()
            #expect(challenge == message, "the WebAuthn challenge is the confirmation's message, hash rebuilt from the details")

            let assertion = try page.authenticator.authenticate(ceremony.publicKey)
            let answer = try await Self.approve(server, page, pay.id, ceremonyID: ceremony.ceremonyID, credential: assertion)
            try #require(answer.status == .ok, "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            let approved = try answer.decode(BioAuthProtocol.Confirmation.self)
            #expect(approved.status == .approved && approved.factor == .passkey && approved.passkeyID != nil)
            let claims = try #require(approved.receipt.flatMap(Self.payload))
            let evidence = try #require(claims["evidence"] as? [String: String])
            #expect(evidence["authenticator_data"] == assertion.response.authenticatorData.base64URL)
            #expect(evidence["client_data_json"] == assertion.response.clientDataJSON.base64URL)
            #expect(evidence["signature"] == assertion.response.signature.base64URL)
            #expect(claims["factor"] as? String == "passkey")
            #expect(try await Self.listed(server, page, pay.id)?.status == .approved)
            // Once: the approved confirmation refuses another answer, and another ceremony.
            let replay = try await Self.approve(server, page, pay.id, ceremonyID: ceremony.ceremonyID, credential: assertion)
            #expect(replay.errorCode == .confirmationClosed)
            let closed = try await server.api.call(.post, Endpoint.createConfirmationPasskeyOptions.path(pay.id), headers: page.headers)
            #expect(closed.errorCode == .confirmationClosed)
        }
    }

    @Test(
        "the passkey receipt verifies against the key set, and from it alone: the passkey's signature over its evidence, whose challenge is the message"
    )
    func receiptProvesTheApproval() async throws {
        try await TestServer.run { server in
            let page = try await Self.page(server)
            let pay = try await server.confirmation(for: page.user.id)
            let ceremony = try await Self.options(server, page, pay.id)
            let assertion = try page.authenticator.authenticate(ceremony.publicKey)
            let approved = try await Self.approve(server, page, pay.id, ceremonyID: ceremony.ceremonyID, credential: assertion)
                .decode(BioAuthProtocol.Confirmation.self)
            let receipt = try ConfirmationFactorTests.receipt(approved)
            #expect(receipt.header["typ"] as? String == "bioauth-receipt+jwt")
            #expect(receipt.verifies(with: try await server.api.keySet()))
            let claims = receipt.claims
            let credential = try #require(claims["credential"] as? [String: Any])
            #expect(credential["passkey_id"] as? String == approved.passkeyID && credential["algorithm"] as? Int == -7)
            let evidence = try #require(claims["evidence"] as? [String: String])
            let publicKey = try COSEKey(CBORDecoder().decode(Array(try #require((credential["public_key"] as? String).flatMap(Base64URL.decode)))))
            let authenticatorData = try #require(evidence["authenticator_data"].flatMap(Base64URL.decode))
            let clientData = try #require(evidence["client_data_json"].flatMap(Base64URL.decode))
            let signature = try #require(evidence["signature"].flatMap(Base64URL.decode))
            #expect(publicKey.isValidSignature(Array(signature), for: Array(authenticatorData) + Array(SHA256.hash(data: clientData))))
            // The signed clientDataJSON's challenge is the message over the receipt's own details hash.
            let collected = try #require(try JSONSerialization.jsonObject(with: clientData) as? [String: Any])
            let challenge = try #require((collected["challenge"] as? String).flatMap(Base64URL.decode))
            let stated = try #require(claims["confirmation"] as? [String: Any])
            let hash = try #require((stated["details_hash"] as? String).flatMap(Base64URL.decode))
            #expect(ConfirmationCeremony.binds(Array(challenge), relyingPartyID: LoopbackServer.relyingPartyID, detailsHash: hash))
            #expect(hash == pay.details.hash(confirmationID: pay.id))
        }
    }

    @Test(
        "user verification is required for a confirmation even where sign-ins accept a clear UV: 400 user_verification_required, the ceremony spent"
    )
    func userVerificationRequired() async throws {
        try await TestServer.run(configure: { $0.webAuthnUserVerification = .preferred }) { server in
            let page = try await Self.page(server, userVerified: false)
            #expect(try await server.api.passkeySignIn(page.authenticator).status == .ok, "this server signs in without UV")
            let pay = try await server.confirmation(for: page.user.id)
            let ceremony = try await Self.options(server, page, pay.id)
            #expect(ceremony.publicKey.userVerification == "required")
            let answer = try await Self.approve(
                server,
                page,
                pay.id,
                ceremonyID: ceremony.ceremonyID,
                credential: try page.authenticator.authenticate(ceremony.publicKey)
            )
            #expect(answer.errorCode == .userVerificationRequired)
            #expect(try await Self.listed(server, page, pay.id)?.status == .pending)
            // The refused answer spent the ceremony: a verified answer to it now is too late.
            page.authenticator.userVerified = true
            let late = try await Self.approve(
                server,
                page,
                pay.id,
                ceremonyID: ceremony.ceremonyID,
                credential: try page.authenticator.authenticate(ceremony.publicKey)
            )
            #expect(late.errorCode == .challengeInvalid)
        }
    }

    @Test("a confirmation's ceremony neither signs in nor re-authenticates, and a sign-in's or re-authentication's cannot approve")
    func ceremonyServesOnlyItsConfirmation() async throws {
        try await TestServer.run { server in
            let page = try await Self.page(server)
            let pay = try await server.confirmation(for: page.user.id)
            let ceremony = try await Self.options(server, page, pay.id)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.signInWithPasskey.path(),
                json: PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try page.authenticator.authenticate(ceremony.publicKey))
            )
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                Endpoint.reauthenticate.path(),
                json: ReauthenticationBody(ceremonyID: ceremony.ceremonyID, credential: try page.authenticator.authenticate(ceremony.publicKey)),
                token: page.token
            )

            let reauth = try await server.api.expect(
                .created,
                PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self,
                .post,
                Endpoint.createReauthenticationPasskeyOptions.path(),
                token: page.token
            )
            let signIn = try await server.api.passkeyAuthenticationOptions(username: page.user.username)
            for other in [reauth, signIn] {
                let answer = try await Self.approve(
                    server,
                    page,
                    pay.id,
                    ceremonyID: other.ceremonyID,
                    credential: try page.authenticator.authenticate(other.publicKey)
                )
                #expect(answer.errorCode == .challengeInvalid)
            }
            #expect(try await Self.listed(server, page, pay.id)?.status == .pending)
            // None of them spent the other's: each still serves its own purpose.
            let renewed = try await server.api.call(
                .post,
                Endpoint.reauthenticate.path(),
                json: ReauthenticationBody(ceremonyID: reauth.ceremonyID, credential: try page.authenticator.authenticate(reauth.publicKey)),
                token: page.token
            )
            #expect(renewed.status == .ok)
            let approved = try await Self.approve(
                server,
                page,
                pay.id,
                ceremonyID: ceremony.ceremonyID,
                credential: try page.authenticator.authenticate(ceremony.publicKey)
            )
            #expect(approved.status == .ok)
        }
    }

    @Test("a ceremony and an assertion for one confirmation approve no other: 401 challenge_invalid, both stay pending")
    func anotherConfirmationsMessage() async throws {
        try await TestServer.run { server in
            let page = try await Self.page(server)
            let first = try await server.confirmation(for: page.user.id)
            let second = try await server.confirmation(
                for: page.user.id,
                .payment(amount: "9000.00", currency: "EUR", payeeName: "Mallory Example", payeeAccount: nil, reference: nil)
            )
            let firstCeremony = try await Self.options(server, page, first.id)
            let secondCeremony = try await Self.options(server, page, second.id)
            let overFirst = try page.authenticator.authenticate(firstCeremony.publicKey)
            // The first's ceremony and assertion sent for the second.
            let moved = try await Self.approve(server, page, second.id, ceremonyID: firstCeremony.ceremonyID, credential: overFirst)
            #expect(moved.errorCode == .challengeInvalid)
            // The second's ceremony answered with an assertion over the first's message.
            let swapped = try await Self.approve(server, page, second.id, ceremonyID: secondCeremony.ceremonyID, credential: overFirst)
            #expect(swapped.errorCode == .challengeInvalid)
            #expect(try await Self.listed(server, page, first.id)?.status == .pending)
            #expect(try await Self.listed(server, page, second.id)?.status == .pending)
            // The moved ceremony changed nothing; the swapped assertion counts against the second.
            let (firstFailures, secondFailures) = (try await server.stored(first.id)?.failures, try await server.stored(second.id)?.failures)
            #expect(firstFailures == 0 && secondFailures == 1)
        }
    }

    @Test("only the session that opened the ceremony answers it; another account's confirmation is 404; a change needs the CSRF token")
    func sessionAccountAndCSRF() async throws {
        try await TestServer.run { server in
            let page = try await Self.page(server)
            let pay = try await server.confirmation(for: page.user.id)
            let ceremony = try await Self.options(server, page, pay.id)
            let otherSession = try await server.api.signIn(page.user.username)
            let answer = try await server.api.call(
                .post,
                Endpoint.approveConfirmationWithPasskey.path(pay.id),
                json: ConfirmationPasskeyRequest(
                    ceremonyID: ceremony.ceremonyID,
                    credential: try page.authenticator.authenticate(ceremony.publicKey)
                ),
                token: otherSession.sessionToken
            )
            #expect(answer.errorCode == .challengeInvalid)

            let stranger = try await Self.page(server)
            let foreign = try await server.api.call(.post, Endpoint.createConfirmationPasskeyOptions.path(pay.id), headers: stranger.headers)
            #expect(foreign.errorCode == .notFound)
            var noToken = page.headers
            noToken[BrowserSession.csrfHeader] = nil
            let forged = try await server.api.call(.post, Endpoint.createConfirmationPasskeyOptions.path(pay.id), headers: noToken)
            #expect(forged.errorCode == .csrfFailed)
            #expect(try await Self.listed(server, page, pay.id)?.status == .pending)
        }
    }

    /// The page's two confirmation calls driven into each documented answer but those every
    /// operation shares (a request head too large, a one-time password's session, the request
    /// limit), for ``DocumentedStatusTests``.
    static func statusTour(huge: Data, garbage: Data) async throws -> Set<String> {
        try await TestServer.run { server in
            let api = server.api
            let page = try await Self.page(server)
            let pay = try await server.confirmation(for: page.user.id)
            let options = Endpoint.createConfirmationPasskeyOptions.path(pay.id)
            let approve = Endpoint.approveConfirmationWithPasskey.path(pay.id)
            try await api.call(.post, options)
            try await api.call(.post, Endpoint.createConfirmationPasskeyOptions.path("cnf_0"), headers: page.headers)
            let ceremony = try await Self.options(server, page, pay.id)
            let body = ConfirmationPasskeyRequest(
                ceremonyID: ceremony.ceremonyID,
                credential: try page.authenticator.authenticate(ceremony.publicKey)
            )
            try await api.call(.post, approve, raw: garbage, headers: page.headers)
            try await api.call(.post, approve, raw: huge, headers: page.headers)
            try await api.call(.post, approve, json: body)
            try await api.call(.post, Endpoint.approveConfirmationWithPasskey.path("cnf_0"), json: body, headers: page.headers)
            try await api.call(.post, approve, json: body, headers: page.headers)
            try await api.call(.post, approve, json: body, headers: page.headers)
            try await api.call(.post, options, headers: page.headers)
            return api.recorded.all
        }
    }

    /// The JSON payload of a compact JWS.
    static func payload(_ jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }
}
