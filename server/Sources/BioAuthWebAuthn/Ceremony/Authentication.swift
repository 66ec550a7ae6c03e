import BioAuthProtocol
import Crypto
import Foundation

/// What the relying party holds of a credential for an assertion to be checked against.
package struct CredentialRecord: Sendable {
    /// The credential id.
    package var credentialID: [UInt8]
    /// The user handle the credential was created for.
    package var userHandle: [UInt8]
    /// The COSE public key bytes stored at registration.
    package var publicKey: [UInt8]
    /// The last signature counter seen.
    package var signCount: UInt32
    /// BE at registration.
    package var backupEligible: Bool

    /// A record of the stored fields.
    package init(credentialID: [UInt8], userHandle: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool) {
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// An assertion that passed the authentication procedure, and what to update.
package struct VerifiedAuthentication: Sendable {
    /// The counter to store (unchanged when both were 0, or when a regression was accepted).
    package let signCount: UInt32
    /// The counter did not increase although one of the two is not 0 (only returned when
    /// ``RelyingParty/acceptsSignCountRegression``).
    package let signCountRegressed: Bool
    /// BS now.
    package let backedUp: Bool
    /// UV was set.
    package let userVerified: Bool
}

extension RelyingParty {
    /// The request options for an authentication ceremony (§5.5): `allowCredentials` empty for a
    /// discoverable (username-less, or autofill) sign-in.
    package func requestOptions(
        challenge: [UInt8],
        allowing credentials: [PublicKeyCredentialDescriptorJSON],
        timeout: Duration
    )
        -> PublicKeyCredentialRequestOptionsJSON
    {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URLBytes(challenge),
            timeout: Int(timeout.components.seconds * 1000),
            rpId: id,
            allowCredentials: credentials,
            userVerification: userVerification.rawValue
        )
    }

    /// Runs the authentication procedure (§7.2) on a browser's `AuthenticationResponseJSON` for
    /// the ceremony that issued `challenge`, against the stored `credential` the caller looked up
    /// by `rawId` (and, for a username-first sign-in, checked belongs to that user and was in
    /// `allowCredentials`). `userIdentified`: the ceremony named its user (username-first);
    /// otherwise the response must carry the credential owner's user handle (step 6).
    package func verifyAuthentication(
        _ response: AuthenticationResponseJSON,
        challenge: [UInt8],
        credential: CredentialRecord,
        userIdentified: Bool = false
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        guard response.type == "public-key" else { throw WebAuthnError(.invalidResponse, "type is not public-key") }
        guard response.id == response.rawId.base64URL else { throw WebAuthnError(.invalidResponse, "id is not the base64url of rawId") }
        guard Array(response.rawId.data) == credential.credentialID else { throw WebAuthnError(.credentialNotAllowed, "another credential") }
        // Step 6: a user handle, when sent, must be the credential's owner's; when the ceremony
        // named no user, the handle is what identifies one, so it must be sent.
        if let handle = response.response.userHandle {
            guard Array(handle.data) == credential.userHandle else {
                throw WebAuthnError(.credentialNotAllowed, "the user handle is not the credential's owner's")
            }
        } else if !userIdentified {
            throw WebAuthnError(.credentialNotAllowed, "a sign-in that named no user needs the user handle")
        }
        let clientDataJSON = Array(response.response.clientDataJSON.data)
        _ = try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(Array(response.response.authenticatorData.data))
        guard data.attestedCredential == nil else { throw WebAuthnError(.invalidAuthenticatorData, "an assertion carries no new credential") }
        try checkFlags(data)
        guard data.flags.contains(.backupEligible) == credential.backupEligible else {
            throw WebAuthnError(.backupFlagsInconsistent, "BE changed since registration")
        }
        let key: COSEKey
        do {
            key = try COSEKey(try CBORDecoder().decode(credential.publicKey))
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.invalidCredentialPublicKey, "the stored key is not COSE")
        }
        let signed = data.bytes + Array(SHA256.hash(data: clientDataJSON))
        guard key.isValidSignature(Array(response.response.signature.data), for: signed) else { throw WebAuthnError(.invalidSignature) }
        // Step 23: a counter that does not grow, when either side keeps one, may be a clone.
        var signCount = credential.signCount
        var regressed = false
        if data.signCount != 0 || credential.signCount != 0 {
            if data.signCount > credential.signCount {
                signCount = data.signCount
            } else {
                guard acceptsSignCountRegression else {
                    throw WebAuthnError(.signCountRegressed, "counter \(data.signCount) after \(credential.signCount)")
                }
                regressed = true
            }
        }
        return VerifiedAuthentication(
            signCount: signCount,
            signCountRegressed: regressed,
            backedUp: data.flags.contains(.backedUp),
            userVerified: data.flags.contains(.userVerified)
        )
    }
}
