import BioAuthProtocol
import Crypto
import Foundation

/// A WebAuthn relying party: who it is, where it is served from, and what it requires. Its
/// ``verifyRegistration(_:challenge:now:)`` and ``verifyAuthentication(_:challenge:credential:now:)``
/// run the verification procedures of WebAuthn Level 3 (§7.1, §7.2); the caller stores challenges
/// and credentials (this module has no storage and no networking, as swift-webauthn's core).
package struct RelyingParty: Sendable {
    /// What the relying party asks of the authenticator's user check.
    package enum UserVerification: String, Sendable {
        /// UV must be set: a PIN or biometric match on the authenticator. A clear UV flag is
        /// refused, not warned about.
        case required
        /// UV is asked for but a clear flag is accepted (presence alone).
        case preferred
    }

    /// The RP id: a registrable domain suffix of every origin (`example.com`).
    package var id: String
    /// A name for people (`BioAuth`).
    package var name: String
    /// The origins a ceremony may come from, compared exactly (`https://example.com`,
    /// `https://login.example.com`, `android:apk-key-hash:…`).
    package var origins: Set<String>
    /// The top-level origins allowed to embed a ceremony in a cross-origin iframe; empty refuses
    /// every cross-origin call (`crossOrigin: true`, or any `topOrigin`).
    package var topOrigins: Set<String> = []
    /// The user-verification requirement; `required` unless the operator relaxes it.
    package var userVerification: UserVerification = .required
    /// Which attestations are accepted.
    package var attestation: AttestationPolicy = .none
    /// The algorithms offered, most preferred first.
    package var algorithms: [COSEAlgorithm] = [.es256, .eddsa, .rs256]
    /// Accept an assertion whose signature counter did not increase (it is still reported).
    /// Off: a regression is refused as a possible cloned authenticator.
    package var acceptsSignCountRegression = false

    /// A relying party with the given id, name and origins, and the default requirements.
    package init(id: String, name: String, origins: Set<String>) {
        self.id = id
        self.name = name
        self.origins = origins
    }

    /// SHA-256 of the RP id, as authenticator data carries it.
    package var idHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    // The steps both ceremonies share.

    /// §7.1 steps 5–12, §7.2 steps 9–15: the client data's type, challenge, origin and embedding.
    func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) -> CollectedClientData {
        let clientData = try CollectedClientData(json)
        guard clientData.type == type else { throw WebAuthnError(.wrongCeremony, "type \(clientData.type), expected \(type)") }
        guard clientData.challenge == Base64URL.encode(challenge) else { throw WebAuthnError(.challengeMismatch) }
        guard origins.contains(clientData.origin) else { throw WebAuthnError(.originNotAllowed, clientData.origin) }
        if clientData.crossOrigin == true || clientData.topOrigin != nil {
            guard let top = clientData.topOrigin, topOrigins.contains(top) else {
                throw WebAuthnError(.crossOriginNotAllowed, "embedded by \(clientData.topOrigin ?? "an unnamed top-level origin")")
            }
        }
        return clientData
    }

    /// §7.1 steps 14–17, §7.2 steps 16–19: the RP id hash, presence, verification and the
    /// backup flags' own consistency.
    func checkFlags(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard data.rpIDHash == idHash else { throw WebAuthnError(.rpIDMismatch) }
        guard data.flags.contains(.userPresent) else { throw WebAuthnError(.userNotPresent) }
        if userVerification == .required {
            guard data.flags.contains(.userVerified) else { throw WebAuthnError(.userNotVerified) }
        }
        if data.flags.contains(.backedUp) {
            guard data.flags.contains(.backupEligible) else { throw WebAuthnError(.backupFlagsInconsistent, "BS is set without BE") }
        }
    }
}
