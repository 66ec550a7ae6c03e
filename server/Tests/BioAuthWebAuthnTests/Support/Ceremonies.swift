import BioAuthProtocol
import BioAuthTesting
import Foundation

@testable import BioAuthWebAuthn

/// The relying party and authenticator most tests start from: `example.com` served from
/// `https://example.com`, user verification required, no attestation.
enum Ceremonies {
    static let origin = "https://example.com"
    static let userHandle = Array("usr_0123456789abcdef0123456789abcdef".utf8)

    static func party(_ configure: (inout RelyingParty) -> Void = { _ in }) -> RelyingParty {
        var party = RelyingParty(id: "example.com", name: "Example", origins: [origin])
        configure(&party)
        return party
    }

    static func challenge() -> [UInt8] { (0..<32).map { _ in UInt8.random(in: 0...255) } }

    static func creationOptions(_ party: RelyingParty, challenge: [UInt8]) -> PublicKeyCredentialCreationOptionsJSON {
        party.creationOptions(
            challenge: challenge,
            userHandle: userHandle,
            userName: "alice",
            displayName: "Alice",
            excluding: [],
            timeout: .seconds(120)
        )
    }

    /// A registration the party accepted, with the authenticator that made it.
    static func registered(
        _ party: RelyingParty,
        _ authenticator: SoftwareAuthenticator = SoftwareAuthenticator(origin: origin)
    ) async throws -> (SoftwareAuthenticator, VerifiedRegistration) {
        let challenge = challenge()
        let response = try authenticator.register(creationOptions(party, challenge: challenge))
        return (authenticator, try await party.verifyRegistration(response, challenge: challenge, now: Date()))
    }

    static func record(_ registration: VerifiedRegistration) -> CredentialRecord {
        CredentialRecord(
            credentialID: registration.credentialID,
            userHandle: userHandle,
            publicKey: registration.publicKey,
            signCount: registration.signCount,
            backupEligible: registration.backupEligible
        )
    }

    /// Expects the registration procedure to refuse `response` for `reason`.
    static func refusal(
        _ party: RelyingParty,
        _ response: RegistrationResponseJSON,
        challenge: [UInt8],
        now: Date = Date()
    ) async -> WebAuthnError.Reason? {
        do {
            _ = try await party.verifyRegistration(response, challenge: challenge, now: now)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The authentication procedure's verdict on `response`: `nil` when accepted.
    static func refusal(
        _ party: RelyingParty,
        _ response: AuthenticationResponseJSON,
        challenge: [UInt8],
        credential: CredentialRecord,
        userIdentified: Bool = false
    ) -> WebAuthnError.Reason? {
        do {
            _ = try party.verifyAuthentication(response, challenge: challenge, credential: credential, userIdentified: userIdentified)
            return nil
        } catch {
            return error.reason
        }
    }
}

extension Base64URLBytes {
    /// The same bytes with one changed (for tampering).
    func flipping(byte index: Int) -> Base64URLBytes {
        var bytes = Array(data)
        bytes[index] ^= 0x01
        return Base64URLBytes(bytes)
    }
}
