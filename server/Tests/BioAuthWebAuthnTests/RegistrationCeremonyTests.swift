import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import Testing

@testable import BioAuthWebAuthn

/// The registration procedure (WebAuthn Level 3 §7.1), step by step: each check refuses the one
/// thing it is there for, with its own reason, and an honest response passes them all.
@Suite("Passkey registration: every check of §7.1")
struct RegistrationCeremonyTests {
    @Test("an honest registration gives the credential record: id, key, counter, AAGUID, flags and transports")
    func honest() async throws {
        let party = Ceremonies.party()
        let (authenticator, registration) = try await Ceremonies.registered(party)
        #expect(registration.credentialID == authenticator.credentials[0].id)
        #expect(registration.algorithm == .es256)
        #expect(registration.signCount == 1)
        #expect(registration.aaguid == authenticator.aaguid)
        #expect(registration.userVerified && !registration.backupEligible && !registration.backedUp)
        #expect(registration.transports == ["internal"])
        #expect(registration.attestationFormat == "none" && registration.trustPath == .none)
    }

    @Test("ES256, Ed25519 and RS256 credentials register and then sign in", arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func algorithms(_ algorithm: COSEAlgorithm) async throws {
        let party = Ceremonies.party()
        let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
        authenticator.algorithm = algorithm
        let (_, registration) = try await Ceremonies.registered(party, authenticator)
        #expect(registration.algorithm == algorithm)
        let challenge = Ceremonies.challenge()
        let assertion = try authenticator.authenticate(party.requestOptions(challenge: challenge, allowing: [], timeout: .seconds(60)))
        #expect(Ceremonies.refusal(party, assertion, challenge: challenge, credential: Ceremonies.record(registration)) == nil)
    }

    @Test("the client data must say webauthn.create")
    func type() async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        let response = try SoftwareAuthenticator(origin: Ceremonies.origin).register(
            Ceremonies.creationOptions(party, challenge: challenge),
            type: "webauthn.get"
        )
        #expect(await Ceremonies.refusal(party, response, challenge: challenge) == .wrongCeremony)
    }

    @Test("a response to another ceremony's challenge is refused")
    func challenge() async throws {
        let party = Ceremonies.party()
        let response = try SoftwareAuthenticator(origin: Ceremonies.origin).register(
            Ceremonies.creationOptions(party, challenge: Ceremonies.challenge())
        )
        #expect(await Ceremonies.refusal(party, response, challenge: Ceremonies.challenge()) == .challengeMismatch)
    }

    @Test(
        "the origin must be one configured, exactly: another host, scheme, port or a trailing slash is refused",
        arguments: ["https://evil.example", "http://example.com", "https://example.com:8443", "https://example.com/", "https://sub.example.com"]
    )
    func origin(_ origin: String) async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        let response = try SoftwareAuthenticator(origin: origin).register(Ceremonies.creationOptions(party, challenge: challenge))
        #expect(await Ceremonies.refusal(party, response, challenge: challenge) == .originNotAllowed)
    }

    @Test("a cross-origin iframe is refused unless its top-level origin is allowed")
    func crossOrigin() async throws {
        let challenge = Ceremonies.challenge()
        let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
        authenticator.crossOrigin = true
        authenticator.topOrigin = "https://partner.example"
        let response = try authenticator.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge))
        #expect(await Ceremonies.refusal(Ceremonies.party(), response, challenge: challenge) == .crossOriginNotAllowed)
        #expect(
            await Ceremonies.refusal(Ceremonies.party { $0.topOrigins = ["https://other.example"] }, response, challenge: challenge)
                == .crossOriginNotAllowed
        )
        #expect(await Ceremonies.refusal(Ceremonies.party { $0.topOrigins = ["https://partner.example"] }, response, challenge: challenge) == nil)
        // A topOrigin alone (crossOrigin absent) is an embedding too.
        authenticator.crossOrigin = nil
        let embedded = try authenticator.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge))
        #expect(await Ceremonies.refusal(Ceremonies.party(), embedded, challenge: challenge) == .crossOriginNotAllowed)
    }

    @Test("a credential scoped to another RP id (rpIdHash) is refused")
    func rpID() async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        var options = Ceremonies.creationOptions(party, challenge: challenge)
        options.rp.id = "evil.example"
        let response = try SoftwareAuthenticator(origin: Ceremonies.origin).register(options)
        #expect(await Ceremonies.refusal(party, response, challenge: challenge) == .rpIDMismatch)
    }

    @Test("user presence is required; user verification is required by default and only optional when preferred")
    func presenceAndVerification() async throws {
        let challenge = Ceremonies.challenge()
        let absent = SoftwareAuthenticator(origin: Ceremonies.origin)
        absent.userPresent = false
        #expect(
            await Ceremonies.refusal(
                Ceremonies.party(),
                try absent.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge)),
                challenge: challenge
            ) == .userNotPresent
        )
        let unverified = SoftwareAuthenticator(origin: Ceremonies.origin)
        unverified.userVerified = false
        let response = try unverified.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge))
        #expect(await Ceremonies.refusal(Ceremonies.party(), response, challenge: challenge) == .userNotVerified)
        #expect(await Ceremonies.refusal(Ceremonies.party { $0.userVerification = .preferred }, response, challenge: challenge) == nil)
    }

    @Test("BS (backed up) without BE (backup eligible) is refused")
    func backupFlags() async throws {
        let challenge = Ceremonies.challenge()
        let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
        authenticator.backedUp = true
        #expect(
            await Ceremonies.refusal(
                Ceremonies.party(),
                try authenticator.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge)),
                challenge: challenge
            ) == .backupFlagsInconsistent
        )
        authenticator.backupEligible = true
        let (_, synced) = try await Ceremonies.registered(Ceremonies.party(), authenticator)
        #expect(synced.backupEligible && synced.backedUp)
    }

    @Test("a key algorithm the relying party did not offer is refused")
    func algorithmNotOffered() async throws {
        let party = Ceremonies.party { $0.algorithms = [.es256] }
        let challenge = Ceremonies.challenge()
        let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
        authenticator.algorithm = .eddsa
        #expect(
            await Ceremonies.refusal(party, try authenticator.register(Ceremonies.creationOptions(party, challenge: challenge)), challenge: challenge)
                == .unsupportedAlgorithm
        )
    }

    @Test("id must be the base64url of rawId, and rawId the credential id in the authenticator data")
    func credentialID() async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        let response = try SoftwareAuthenticator(origin: Ceremonies.origin).register(Ceremonies.creationOptions(party, challenge: challenge))
        var mismatched = response
        mismatched.id = Base64URL.encode([1, 2, 3])
        #expect(await Ceremonies.refusal(party, mismatched, challenge: challenge) == .invalidResponse)
        var other = response
        other.rawId = response.rawId.flipping(byte: 0)
        other.id = other.rawId.base64URL
        #expect(await Ceremonies.refusal(party, other, challenge: challenge) == .invalidCredentialID)
        var copy = response
        copy.response.authenticatorData = response.response.authenticatorData?.flipping(byte: 40)
        #expect(await Ceremonies.refusal(party, copy, challenge: challenge) == .invalidResponse)
    }

    @Test("packed self attestation is verified with the credential key; a forged one is refused")
    func packedSelf() async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
        authenticator.attestation = .packedSelf
        let response = try authenticator.register(Ceremonies.creationOptions(party, challenge: challenge))
        let verified = try await party.verifyRegistration(response, challenge: challenge, now: Date())
        #expect(verified.attestationFormat == "packed" && verified.trustPath == .selfAttestation)
        // The statement signs authenticatorData ‖ hash(clientDataJSON): other client data breaks it.
        let forged = try Self.replacingSignature(of: response)
        #expect(await Ceremonies.refusal(party, forged, challenge: challenge) == .invalidAttestation)
    }

    @Test("packed and fido-u2f attestation verify; with direct attestation the chain must lead to a configured root, valid at the time")
    func certifiedAttestation() async throws {
        let now = Date()
        let ca = try AttestationCA(validity: now.addingTimeInterval(-86_400)...now.addingTimeInterval(86_400))
        let stranger = try AttestationCA(
            commonName: "Someone Else's Root",
            validity: now.addingTimeInterval(-86_400)...now.addingTimeInterval(86_400)
        )
        for attestation in [SoftwareAuthenticator.Attestation.packed(ca), .fidoU2F(ca)] {
            let challenge = Ceremonies.challenge()
            let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
            authenticator.attestation = attestation
            if case .fidoU2F = attestation { authenticator.aaguid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
            let response = try authenticator.register(Ceremonies.creationOptions(Ceremonies.party(), challenge: challenge))
            let verified = try await Ceremonies.party().verifyRegistration(response, challenge: challenge, now: now)
            guard case .certificates(let chain) = verified.trustPath else {
                Issue.record("no chain")
                continue
            }
            #expect(chain.count == 1)
            let trusting = Ceremonies.party { $0.attestation = .direct(roots: [ca.root]) }
            #expect(await Ceremonies.refusal(trusting, response, challenge: challenge, now: now) == nil)
            #expect(
                await Ceremonies.refusal(
                    Ceremonies.party { $0.attestation = .direct(roots: [stranger.root]) },
                    response,
                    challenge: challenge,
                    now: now
                )
                    == .attestationNotTrusted
            )
            #expect(
                await Ceremonies.refusal(trusting, response, challenge: challenge, now: now.addingTimeInterval(2 * 86_400)) == .attestationNotTrusted
            )
            #expect(
                await Ceremonies.refusal(trusting, try Self.replacingSignature(of: response), challenge: challenge, now: now) == .invalidAttestation
            )
        }
    }

    @Test("direct attestation refuses self and none attestation")
    func directRefusesUncertified() async throws {
        let now = Date()
        let ca = try AttestationCA(validity: now.addingTimeInterval(-60)...now.addingTimeInterval(60))
        let party = Ceremonies.party { $0.attestation = .direct(roots: [ca.root]) }
        for attestation in [SoftwareAuthenticator.Attestation.none, .packedSelf] {
            let challenge = Ceremonies.challenge()
            let authenticator = SoftwareAuthenticator(origin: Ceremonies.origin)
            authenticator.attestation = attestation
            #expect(
                await Ceremonies.refusal(
                    party,
                    try authenticator.register(Ceremonies.creationOptions(party, challenge: challenge)),
                    challenge: challenge
                )
                    == .attestationNotTrusted
            )
        }
    }

    @Test("an unknown attestation format, or a none statement that is not empty, is refused")
    func formats() async throws {
        let party = Ceremonies.party()
        let challenge = Ceremonies.challenge()
        let response = try SoftwareAuthenticator(origin: Ceremonies.origin).register(Ceremonies.creationOptions(party, challenge: challenge))
        let object = try CBORDecoder().decode(Array(response.response.attestationObject.data))
        for (format, statement, reason) in [
            ("android-safetynet", CBORValue.map([]), WebAuthnError.Reason.unsupportedAttestationFormat),
            ("none", .map([.init(.text("sig"), .bytes([1]))]), .invalidAttestation),
        ] {
            var changed = response
            changed.response.attestationObject = Base64URLBytes(
                CBOREncoder.encode(
                    .map([
                        .init(.text("fmt"), .text(format)), .init(.text("attStmt"), statement), .init(.text("authData"), object["authData"]!),
                    ])
                )
            )
            #expect(await Ceremonies.refusal(party, changed, challenge: challenge) == reason, "\(format)")
        }
    }

    /// The response with its attestation statement's `sig` replaced by a valid-looking one over other bytes.
    static func replacingSignature(of response: RegistrationResponseJSON) throws -> RegistrationResponseJSON {
        let object = try CBORDecoder().decode(Array(response.response.attestationObject.data))
        guard case .map(var statement)? = object["attStmt"], let index = statement.firstIndex(where: { $0.key == .text("sig") }),
            case .bytes(var signature) = statement[index].value
        else { throw CBORError(.truncated, at: 0) }
        signature[signature.count - 1] ^= 0x01
        statement[index].value = .bytes(signature)
        var forged = response
        forged.response.attestationObject = Base64URLBytes(
            CBOREncoder.encode(
                .map([
                    .init(.text("fmt"), object["fmt"]!), .init(.text("attStmt"), .map(statement)), .init(.text("authData"), object["authData"]!),
                ])
            )
        )
        return forged
    }
}
