import BioAuthAttestation
import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import Testing

@testable import BioAuthServer

/// Which factors approve a confirmation and what they must bring: a PIN only where the operator
/// allows it; under `--key-attestation require` an App Attest key's assertion over the message;
/// and the receipt every approval yields, checkable by anyone with the key set.
@Suite("Confirmation factors and receipts")
struct ConfirmationFactorTests {
    /// The receipt of an approved confirmation, taken apart.
    static func receipt(_ confirmation: BioAuthProtocol.Confirmation) throws -> ParsedAccessToken {
        let receipt = try #require(confirmation.receipt)
        return try #require(ParsedAccessToken(receipt))
    }

    @Test("a PIN does not approve by default: 403 confirmation_factor_not_allowed, nothing changed")
    func pinDeniedByDefault() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("3917", token: account.sessionToken)
            let confirmation = try await server.confirmation(for: account.user.id)
            let (body, _) = try await server.api.signedApproval(confirmation, key: device.key, registrationID: device.registrationID, pin: "3917")
            let before = try await server.snapshot()
            try await server.api.expectError(
                .confirmationFactorNotAllowed,
                .post,
                Endpoint.approveConfirmation.path(confirmation.id),
                json: body,
                token: account.sessionToken
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("with --confirmation-pin allow a PIN approves (factor pin); a wrong PIN counts against the confirmation and the PIN's lockout")
    func pinAllowed() async throws {
        try await TestServer.run(configure: {
            $0.confirmationPIN = .allow
            $0.lockoutThreshold = 1
        }) { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("3917", token: account.sessionToken)
            let credential = try await server.serviceCredential()
            let confirmation = try await server.confirmation(for: account.user.id, expiresIn: 3600, credential: credential)
            let path = Endpoint.approveConfirmation.path(confirmation.id)
            let (wrong, _) = try await server.api.signedApproval(confirmation, key: device.key, registrationID: device.registrationID, pin: "0000")
            try await server.api.expectError(.invalidCredentials, .post, path, json: wrong, token: account.sessionToken)
            #expect(try await server.stored(confirmation.id)?.failures == 1)
            // The PIN's lockout counted it (threshold 1): the PIN is locked now, for a sign-in too.
            #expect(try await server.api.pinSignIn(device, pin: "3917").errorCode == .locked)
            server.clock.advance(seconds: 15 * 60)
            let (right, _) = try await server.api.signedApproval(confirmation, key: device.key, registrationID: device.registrationID, pin: "3917")
            let answer = try await server.api.approve(confirmation.id, right, token: account.sessionToken)
            try #require(answer.status == .ok, "\(String(decoding: answer.body, as: UTF8.self))")
            let approved = try answer.decode(BioAuthProtocol.Confirmation.self)
            #expect(approved.status == .approved && approved.factor == .pin && approved.registrationID == device.registrationID)
            let receipt = try Self.receipt(approved)
            #expect(receipt.claims["factor"] as? String == "pin")
        }
    }

    /// An App Attest key and a biometric device key registered with its attestation, under require.
    static func appAttestedKey(
        _ server: TestServer,
        token: String
    ) async throws -> (appAttest: P256.Signing.PrivateKey, key: SoftwareDeviceKey, registration: Registration) {
        let appAttest = P256.Signing.PrivateKey()
        let key = SoftwareDeviceKey.es256()
        let challenge = try await server.api.attestationChallenge(token: token).challenge.data
        let message = try KeyAttestationMessage(relyingPartyID: LoopbackServer.relyingPartyID, publicKey: key.publicKey(), challenge: challenge)
            .encoded()
        let attestation = try KeyAttestationTests.apple.attestation(
            of: appAttest.publicKey,
            appID: KeyAttestationTests.appID,
            clientDataHash: Array(SHA256.hash(data: message))
        )
        let evidence = KeyAttestationEvidence.appleAppAttest(
            challenge: challenge,
            keyID: Data(AppAttestAuthority.keyID(appAttest.publicKey)),
            attestation: Data(attestation)
        )
        let start = try await server.api.startRegistration(key, token: token, keyAttestation: evidence)
        return (appAttest, key, try await server.api.verifyRegistration(start, key: key, token: token))
    }

    @Test("under require, a key with App Attest evidence approves only with a fresh assertion of that App Attest key over the message")
    func appAttestUnderRequire() async throws {
        try await KeyAttestationTests.run(.require) { server in
            let account = try await server.api.newAccount()
            let (appAttest, key, registration) = try await Self.appAttestedKey(server, token: account.sessionToken)
            let confirmation = try await server.confirmation(for: account.user.id)
            let path = Endpoint.approveConfirmation.path(confirmation.id)
            func assertion(_ counter: UInt32, over message: Data) throws -> Base64URLBytes {
                let hash = Array(SHA256.hash(data: message))
                return Base64URLBytes(
                    Data(try AppAttestAuthority.assertion(by: appAttest, appID: KeyAttestationTests.appID, counter: counter, clientDataHash: hash))
                )
            }
            var (body, message) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            try await server.api.expectError(.appAttestAssertionInvalid, .post, path, json: body, token: account.sessionToken)
            (body, message) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            body.appAttestAssertion = try assertion(1, over: Data("another message".utf8))
            try await server.api.expectError(.appAttestAssertionInvalid, .post, path, json: body, token: account.sessionToken)
            body.appAttestAssertion = Base64URLBytes(Data(P256.Signing.PrivateKey().publicKey.x963Representation))
            try await server.api.expectError(.appAttestAssertionInvalid, .post, path, json: body, token: account.sessionToken)
            #expect(try await server.stored(confirmation.id)?.storedStatus == .pending)
            (body, message) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            body.appAttestAssertion = try assertion(1, over: message)
            let approved = try await server.api.approve(confirmation.id, body, token: account.sessionToken).decode(BioAuthProtocol.Confirmation.self)
            #expect(approved.status == .approved)
            #expect(try Self.receipt(approved).claims["app_attest"] as? Bool == true)
            // The counter moved: an assertion with the same counter, for the next confirmation, is refused.
            let next = try await server.confirmation(for: account.user.id)
            (body, message) = try await server.api.signedApproval(next, key: key, registrationID: registration.id)
            body.appAttestAssertion = try assertion(1, over: message)
            try await server.api.expectError(
                .appAttestAssertionInvalid,
                .post,
                Endpoint.approveConfirmation.path(next.id),
                json: body,
                token: account.sessionToken
            )
        }
    }

    @Test("under require, a key without App Attest evidence (Android's) approves without an assertion")
    func androidKeyUnderRequire() async throws {
        try await KeyAttestationTests.run(.require) { server in
            let account = try await server.api.newAccount()
            let key = SoftwareDeviceKey.es256()
            let evidence = try await KeyAttestationTests.androidEvidence(server, key: key, token: account.sessionToken)
            let start = try await server.api.startRegistration(key, token: account.sessionToken, keyAttestation: evidence)
            let registration = try await server.api.verifyRegistration(start, key: key, token: account.sessionToken)
            let confirmation = try await server.confirmation(for: account.user.id)
            let (body, _) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            let approved = try await server.api.approve(confirmation.id, body, token: account.sessionToken).decode(BioAuthProtocol.Confirmation.self)
            #expect(approved.status == .approved)
            #expect(try Self.receipt(approved).claims["app_attest"] == nil)
        }
    }

    @Test("the receipt is a bioauth-receipt+jwt JWS that verifies against the key set, and its device signature verifies over its message")
    func receiptVerifies() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let confirmation = try await server.confirmation(for: account.user.id)
            let (body, message) = try await server.api.signedApproval(confirmation, key: key, registrationID: registration.id)
            let approved = try await server.api.approve(confirmation.id, body, token: account.sessionToken).decode(BioAuthProtocol.Confirmation.self)
            let receipt = try Self.receipt(approved)
            #expect(receipt.header["typ"] as? String == "bioauth-receipt+jwt")
            #expect(receipt.verifies(with: try await server.api.keySet()))
            let claims = receipt.claims
            #expect(claims["iss"] as? String == server.loopback.configuration.accessTokenIssuer)
            #expect(claims["sub"] as? String == account.user.id && claims["jti"] as? String == confirmation.id)
            #expect(claims["iat"] as? Int == Int(server.clock.now.timeIntervalSince1970))
            #expect(claims["factor"] as? String == "biometric")
            let stated = try #require(claims["confirmation"] as? [String: Any])
            #expect(stated["id"] as? String == confirmation.id && stated["kind"] as? String == "payment")
            #expect(stated["details_hash"] as? String == Base64URL.encode(examplePayment.hash(confirmationID: confirmation.id)))
            #expect(
                stated["details"] as? [String: String]
                    == [
                        "kind": "payment", "amount": "12.50", "currency": "EUR", "payee_name": "Alice Example",
                        "payee_account": "DE89 3704 0044 0532 0130 00", "reference": "Invoice 42",
                    ]
            )
            let credential = try #require(claims["credential"] as? [String: String])
            #expect(credential["registration_id"] == registration.id && credential["algorithm"] == "ES256")
            let evidence = try #require(claims["evidence"] as? [String: String])
            let signedMessage = try #require(evidence["message"].flatMap(Base64URL.decode))
            #expect(signedMessage == message)
            let publicKey = try DevicePublicKey(algorithm: .es256, bytes: try #require(credential["public_key"].flatMap(Base64URL.decode)))
            let signature = try DeviceSignature(algorithm: .es256, bytes: try #require(evidence["signature"].flatMap(Base64URL.decode)))
            #expect(publicKey.isValidSignature(signature, for: signedMessage))
            #expect(publicKey == (try DevicePublicKey(algorithm: .es256, bytes: key.publicKey())))
        }
    }
}
