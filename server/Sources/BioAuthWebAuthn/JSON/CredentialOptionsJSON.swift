import BioAuthProtocol

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.9): what a browser's
/// `PublicKeyCredential.parseCreationOptionsFromJSON()` takes as it is.
package struct PublicKeyCredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    /// `PublicKeyCredentialRpEntity`.
    package struct RelyingPartyEntity: Codable, Sendable, Equatable {
        /// The RP id: the domain credentials are scoped to.
        package var id: String
        /// A name for people.
        package var name: String
    }

    /// `PublicKeyCredentialUserEntityJSON`.
    package struct UserEntity: Codable, Sendable, Equatable {
        /// The user handle: opaque bytes, no personal information (§14.6.1).
        package var id: Base64URLBytes
        /// The account's name, as the authenticator's account chooser shows it.
        package var name: String
        /// A name for people.
        package var displayName: String
    }

    /// `PublicKeyCredentialParameters`.
    package struct Parameters: Codable, Sendable, Equatable {
        /// Always `public-key`.
        package var type = "public-key"
        /// A COSE algorithm identifier.
        package var alg: Int64
    }

    /// `AuthenticatorSelectionCriteria`.
    package struct AuthenticatorSelection: Codable, Sendable, Equatable {
        /// `discouraged`, `preferred` or `required`.
        package var residentKey: String
        /// Level 1's form of `residentKey: required`, for older browsers.
        package var requireResidentKey: Bool
        /// `required`, `preferred` or `discouraged`.
        package var userVerification: String
    }

    /// The client extensions asked for.
    package struct Extensions: Codable, Sendable, Equatable {
        /// Asks whether the credential is discoverable (`clientExtensionResults.credProps.rk`).
        package var credProps: Bool?
    }

    /// Who asks.
    package var rp: RelyingPartyEntity
    /// For whom.
    package var user: UserEntity
    /// The ceremony's challenge.
    package var challenge: Base64URLBytes
    /// The algorithms accepted, most preferred first.
    package var pubKeyCredParams: [Parameters]
    /// Milliseconds the client should wait for the user.
    package var timeout: Int?
    /// The user's existing credentials, so the authenticator does not make a second one.
    package var excludeCredentials: [PublicKeyCredentialDescriptorJSON]
    /// Resident key and user verification requirements.
    package var authenticatorSelection: AuthenticatorSelection
    /// `none` or `direct`.
    package var attestation: String
    /// Client extensions.
    package var extensions: Extensions?
}

/// `PublicKeyCredentialRequestOptionsJSON` (§5.1.10): what `parseRequestOptionsFromJSON()` takes.
package struct PublicKeyCredentialRequestOptionsJSON: Codable, Sendable, Equatable {
    /// The ceremony's challenge.
    package var challenge: Base64URLBytes
    /// Milliseconds the client should wait for the user.
    package var timeout: Int?
    /// The RP id.
    package var rpId: String
    /// The credentials that may answer; empty for a discoverable (username-less) sign-in.
    package var allowCredentials: [PublicKeyCredentialDescriptorJSON]
    /// `required`, `preferred` or `discouraged`.
    package var userVerification: String
}

/// `PublicKeyCredentialDescriptorJSON` (§5.8.3): one credential, by id.
package struct PublicKeyCredentialDescriptorJSON: Codable, Sendable, Equatable {
    /// Always `public-key`.
    package var type = "public-key"
    /// The credential id.
    package var id: Base64URLBytes
    /// How the client may reach the authenticator (`internal`, `hybrid`, `usb`, …), as it told us.
    package var transports: [String]?

    /// A descriptor of credential `id`; no transports are sent as none (the member is left out).
    package init(id: Base64URLBytes, transports: [String] = []) {
        self.id = id
        self.transports = transports.isEmpty ? nil : transports
    }
}
