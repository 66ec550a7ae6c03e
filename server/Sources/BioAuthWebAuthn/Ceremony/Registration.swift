import BioAuthProtocol
import Crypto
import Foundation

/// A credential that passed the registration procedure: what the relying party stores
/// (WebAuthn Level 3 §7.1 step 28, "credential record").
package struct VerifiedRegistration: Sendable {
    /// The credential id.
    package let credentialID: [UInt8]
    /// The COSE public key bytes, as the authenticator encoded them.
    package let publicKey: [UInt8]
    /// The key's algorithm.
    package let algorithm: COSEAlgorithm
    /// The authenticator's signature counter at registration.
    package let signCount: UInt32
    /// The authenticator model's AAGUID (all zero when it does not say).
    package let aaguid: UUID
    /// BE: the credential may be synced; fixed for the credential's life.
    package let backupEligible: Bool
    /// BS: backed up now.
    package let backedUp: Bool
    /// UV was set.
    package let userVerified: Bool
    /// The transports the client reported.
    package let transports: [String]
    /// The attestation statement format.
    package let attestationFormat: String
    /// What the attestation proved.
    package let trustPath: AttestationTrustPath
}

extension RelyingParty {
    /// The creation options for a registration ceremony (§5.4): discoverable credentials, the
    /// relying party's user verification and attestation, its algorithms, and the user's
    /// existing credentials excluded.
    package func creationOptions(
        challenge: [UInt8],
        userHandle: [UInt8],
        userName: String,
        displayName: String,
        excluding existing: [PublicKeyCredentialDescriptorJSON],
        timeout: Duration
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: .init(id: id, name: name),
            user: .init(id: Base64URLBytes(userHandle), name: userName, displayName: displayName),
            challenge: Base64URLBytes(challenge),
            pubKeyCredParams: algorithms.map { .init(alg: $0.rawValue) },
            timeout: Int(timeout.components.seconds * 1000),
            excludeCredentials: existing,
            authenticatorSelection: .init(residentKey: "required", requireResidentKey: true, userVerification: userVerification.rawValue),
            attestation: attestation.conveyance,
            extensions: .init(credProps: true)
        )
    }

    /// Runs the registration procedure (§7.1) on a browser's `RegistrationResponseJSON` for the
    /// ceremony that issued `challenge`. It checks everything but that the credential id is new
    /// (step 27), which needs the caller's storage.
    package func verifyRegistration(
        _ response: RegistrationResponseJSON,
        challenge: [UInt8],
        now: Date
    ) async throws(WebAuthnError) -> VerifiedRegistration {
        guard response.type == "public-key" else { throw WebAuthnError(.invalidResponse, "type is not public-key") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError(.invalidResponse, "id is not the base64url of rawId") }
        let clientDataJSON = Array(response.response.clientDataJSON.data)
        _ = try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge)
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))
        let object = try AttestationObject(Array(response.response.attestationObject.data))
        let data = object.authenticatorData
        if let copy = response.response.authenticatorData, Array(copy.data) != data.bytes {
            throw WebAuthnError(.invalidResponse, "authenticatorData differs from the attestation object's")
        }
        try checkFlags(data)
        let credential = object.credential
        guard credential.credentialID == Array(response.rawId.data) else {
            throw WebAuthnError(.invalidCredentialID, "rawId is not the credential id in the authenticator data")
        }
        guard algorithms.contains(credential.publicKey.algorithm) else {
            throw WebAuthnError(.unsupportedAlgorithm, "alg \(credential.publicKey.algorithm.rawValue) was not offered")
        }
        let trustPath = try AttestationStatement.verify(object, clientDataHash: clientDataHash)
        try await attestation.accept(trustPath, now: now)
        return VerifiedRegistration(
            credentialID: credential.credentialID,
            publicKey: credential.publicKeyBytes,
            algorithm: credential.publicKey.algorithm,
            signCount: data.signCount,
            aaguid: credential.aaguid,
            backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp),
            userVerified: data.flags.contains(.userVerified),
            transports: response.response.transports ?? [],
            attestationFormat: object.format,
            trustPath: trustPath
        )
    }
}
