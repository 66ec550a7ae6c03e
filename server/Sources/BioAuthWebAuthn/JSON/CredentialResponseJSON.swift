import BioAuthProtocol

/// A `PublicKeyCredential` as `credential.toJSON()` gives it (WebAuthn Level 3 §5.1): the
/// members both ceremonies share, over the authenticator's answer of each. Members not listed are
/// ignored.
package struct PublicKeyCredentialJSON<Response: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The credential id, base64url; must equal `rawId`.
    package var id: String
    /// The credential id.
    package var rawId: Base64URLBytes
    /// The authenticator's answer.
    package var response: Response
    /// `platform` or `cross-platform`, when the client knows.
    package var authenticatorAttachment: String?
    /// Client extension outputs.
    package var clientExtensionResults: ClientExtensionResultsJSON?
    /// Always `public-key`.
    package var type: String

    /// A credential of these parts.
    package init(
        id: String,
        rawId: Base64URLBytes,
        response: Response,
        authenticatorAttachment: String? = nil,
        clientExtensionResults: ClientExtensionResultsJSON? = nil,
        type: String = "public-key"
    ) {
        self.id = id
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }
}

/// `RegistrationResponseJSON`: what `navigator.credentials.create()` gives.
package typealias RegistrationResponseJSON = PublicKeyCredentialJSON<AuthenticatorAttestationResponseJSON>

/// `AuthenticationResponseJSON`: what `navigator.credentials.get()` gives.
package typealias AuthenticationResponseJSON = PublicKeyCredentialJSON<AuthenticatorAssertionResponseJSON>

/// `AuthenticatorAttestationResponseJSON`: a registration's answer.
package struct AuthenticatorAttestationResponseJSON: Codable, Sendable, Equatable {
    /// The client data, as signed over.
    package var clientDataJSON: Base64URLBytes
    /// The attestation object (CBOR: `fmt`, `attStmt`, `authData`).
    package var attestationObject: Base64URLBytes
    /// The authenticator data again, as a convenience; when present it must equal `authData`.
    package var authenticatorData: Base64URLBytes?
    /// How the client may reach the authenticator later.
    package var transports: [String]?

    /// A response of these parts.
    package init(
        clientDataJSON: Base64URLBytes,
        attestationObject: Base64URLBytes,
        authenticatorData: Base64URLBytes? = nil,
        transports: [String]? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.authenticatorData = authenticatorData
        self.transports = transports
    }
}

/// `AuthenticatorAssertionResponseJSON`: a sign-in's answer.
package struct AuthenticatorAssertionResponseJSON: Codable, Sendable, Equatable {
    /// The client data, as signed over.
    package var clientDataJSON: Base64URLBytes
    /// The authenticator data.
    package var authenticatorData: Base64URLBytes
    /// The assertion signature over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    package var signature: Base64URLBytes
    /// The user handle the credential was created for (always present for a discoverable
    /// credential).
    package var userHandle: Base64URLBytes?

    /// A response of these parts.
    package init(clientDataJSON: Base64URLBytes, authenticatorData: Base64URLBytes, signature: Base64URLBytes, userHandle: Base64URLBytes?) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// The client extension outputs this relying party reads.
package struct ClientExtensionResultsJSON: Codable, Sendable, Equatable {
    /// `credProps` (§10.1.3).
    package struct CredentialProperties: Codable, Sendable, Equatable {
        /// Whether the credential is discoverable, when the client knows.
        package var rk: Bool?

        /// Properties as the client reports them.
        package init(rk: Bool?) { self.rk = rk }
    }

    /// Credential properties, when asked for.
    package var credProps: CredentialProperties?

    /// Outputs as the client reports them.
    package init(credProps: CredentialProperties? = nil) { self.credProps = credProps }
}
