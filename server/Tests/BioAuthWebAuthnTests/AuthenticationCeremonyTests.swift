import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthWebAuthn

/// The authentication procedure (WebAuthn Level 3 §7.2), step by step: each check refuses the
/// one thing it is there for, and an honest assertion passes and moves the counter.
@Suite("Passkey sign-in: every check of §7.2")
struct AuthenticationCeremonyTests {
    /// A registered credential, its record, and a fresh challenge with its request options.
    struct Setup {
        var party = Ceremonies.party()
        var authenticator: SoftwareAuthenticator
        var record: CredentialRecord
        var challenge = Ceremonies.challenge()
        var options: PublicKeyCredentialRequestOptionsJSON { party.requestOptions(challenge: challenge, allowing: [], timeout: .seconds(60)) }

        static func make(_ configure: (SoftwareAuthenticator) -> Void = { _ in }) async throws -> Setup {
            let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
            configure(authenticator)
            let (_, registration) = try await Ceremonies.registered(Ceremonies.party(), authenticator)
            return Setup(authenticator: authenticator, record: Ceremonies.record(registration))
        }

        func verdict(_ response: AuthenticationResponseJSON, party: RelyingParty? = nil) -> WebAuthnError.Reason? {
            Ceremonies.refusal(party ?? self.party, response, challenge: challenge, credential: record)
        }
    }

    @Test("an honest assertion is accepted and moves the counter on")
    func honest() async throws {
        let setup = try await Setup.make()
        let result = try setup.party.verifyAuthentication(
            try setup.authenticator.authenticate(setup.options),
            challenge: setup.challenge,
            credential: setup.record
        )
        #expect(result.signCount == 2 && !result.signCountRegressed && result.userVerified)
    }

    @Test("the client data must say webauthn.get, answer this challenge and come from a configured origin")
    func clientData() async throws {
        let setup = try await Setup.make()
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options, type: "webauthn.create")) == .wrongCeremony)
        var other = setup
        other.challenge = Ceremonies.challenge()
        #expect(setup.verdict(try setup.authenticator.authenticate(other.options)) == .challengeMismatch)
        setup.authenticator.origin = "https://example.com.evil.example"
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options)) == .originNotAllowed)
        setup.authenticator.origin = Ceremonies.origin
        setup.authenticator.crossOrigin = true
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options)) == .crossOriginNotAllowed)
    }

    @Test("an assertion scoped to another RP id is refused")
    func rpID() async throws {
        let setup = try await Setup.make()
        let forged = try Self.rescoped(setup, to: "evil.example")
        #expect(setup.verdict(forged) == .rpIDMismatch)
    }

    @Test("UP is required; UV is required unless the relying party prefers it")
    func flags() async throws {
        let setup = try await Setup.make()
        setup.authenticator.userPresent = false
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options)) == .userNotPresent)
        setup.authenticator.userPresent = true
        setup.authenticator.userVerified = false
        let unverified = try setup.authenticator.authenticate(setup.options)
        #expect(setup.verdict(unverified) == .userNotVerified)
        var preferring = setup.party
        preferring.userVerification = .preferred
        #expect(setup.verdict(unverified, party: preferring) == nil)
    }

    @Test("BS without BE is refused, and BE must not change from what was registered")
    func backupFlags() async throws {
        let setup = try await Setup.make()
        setup.authenticator.backedUp = true
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options)) == .backupFlagsInconsistent)
        setup.authenticator.backupEligible = true
        #expect(setup.verdict(try setup.authenticator.authenticate(setup.options)) == .backupFlagsInconsistent, "BE appeared")
        let synced = try await Setup.make { $0.backupEligible = true }
        synced.authenticator.backupEligible = false
        #expect(synced.verdict(try synced.authenticator.authenticate(synced.options)) == .backupFlagsInconsistent, "BE vanished")
        synced.authenticator.backupEligible = true
        synced.authenticator.backedUp = true
        let result = try synced.party.verifyAuthentication(
            try synced.authenticator.authenticate(synced.options),
            challenge: synced.challenge,
            credential: synced.record
        )
        #expect(result.backedUp, "BS may change: a passkey gets backed up later")
    }

    @Test("the signature must be over authenticatorData ‖ SHA-256(clientDataJSON) by the credential's key")
    func signature() async throws {
        let setup = try await Setup.make()
        let honest = try setup.authenticator.authenticate(setup.options)
        var bogus = honest
        bogus.response.signature = Base64URLBytes([0])
        #expect(setup.verdict(bogus) == .invalidSignature)
        var tampered = honest
        tampered.response.authenticatorData = honest.response.authenticatorData.flipping(byte: 36)
        #expect(setup.verdict(tampered) == .invalidSignature)
        let other = try await Setup.make()
        var foreignKey = setup
        foreignKey.record.publicKey = other.record.publicKey
        #expect(foreignKey.verdict(honest) == .invalidSignature)
    }

    @Test("signCount: 0 after 0 is allowed; a counter that does not grow is refused as a possible clone, or reported when accepted")
    func signCount() async throws {
        let counterless = try await Setup.make { $0.counterStep = 0 }
        #expect(counterless.verdict(try counterless.authenticator.authenticate(counterless.options)) == nil)

        let setup = try await Setup.make()
        var record = setup.record
        record.signCount = 5
        setup.authenticator.setSignCount(4, of: record.credentialID)  // the next assertion says 5
        let replayed = try setup.authenticator.authenticate(setup.options)
        #expect(Ceremonies.refusal(setup.party, replayed, challenge: setup.challenge, credential: record) == .signCountRegressed)
        var tolerant = setup.party
        tolerant.acceptsSignCountRegression = true
        let result = try tolerant.verifyAuthentication(replayed, challenge: setup.challenge, credential: record)
        #expect(result.signCountRegressed && result.signCount == 5)
        record.signCount = 0
        #expect(Ceremonies.refusal(setup.party, replayed, challenge: setup.challenge, credential: record) == nil, "0 then 5 is an increase")
    }

    @Test("another credential's assertion, a user handle naming another user, or none where the ceremony named no user, is refused")
    func ownership() async throws {
        let setup = try await Setup.make()
        let other = try await Setup.make()
        #expect(setup.verdict(try other.authenticator.authenticate(setup.options)) == .credentialNotAllowed)
        var response = try setup.authenticator.authenticate(setup.options)
        response.response.userHandle = Base64URLBytes(Array("usr_someone_else".utf8))
        #expect(setup.verdict(response) == .credentialNotAllowed)
        response.response.userHandle = nil
        #expect(setup.verdict(response) == .credentialNotAllowed, "a sign-in that named no user needs the handle")
        #expect(
            Ceremonies.refusal(setup.party, response, challenge: setup.challenge, credential: setup.record, userIdentified: true) == nil,
            "a username-first sign-in may omit it"
        )
    }

    @Test("authenticator data with a new credential (AT) in an assertion is refused")
    func attestedDataInAssertion() async throws {
        let setup = try await Setup.make()
        var response = try setup.authenticator.authenticate(setup.options)
        var data = Array(response.response.authenticatorData.data)
        data[32] |= 0x40
        response.response.authenticatorData = Base64URLBytes(data)
        #expect(setup.verdict(response) == .invalidAuthenticatorData)
    }

    /// An assertion whose authenticator data names `rpID`, signed properly by the credential.
    static func rescoped(_ setup: Setup, to rpID: String) throws -> AuthenticationResponseJSON {
        let clone = SoftwareAuthenticator(origin: Ceremonies.origin)
        var options = Ceremonies.creationOptions(setup.party, challenge: setup.challenge)
        options.rp.id = rpID
        _ = try clone.register(options)
        var request = setup.options
        request.rpId = rpID
        var response = try clone.authenticate(request)
        // Presented as the registered credential.
        response.rawId = Base64URLBytes(setup.record.credentialID)
        response.id = response.rawId.base64URL
        return response
    }
}
