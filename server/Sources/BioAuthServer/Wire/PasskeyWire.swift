import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// A passkey as the API shows it.
struct Passkey: Codable, Sendable, Equatable {
    /// `pk_…`
    var id: String
    /// The WebAuthn credential id (what a browser's signals name).
    var credentialID: Base64URLBytes
    /// A label the user chose (may be empty).
    var label: String
    /// The authenticator model's AAGUID, as it declared it (unverified without attestation).
    var aaguid: String
    /// The password manager or authenticator the AAGUID names, where it is a well-known one.
    var authenticator: String?
    /// The COSE algorithm: −7 (ES256), −8 (EdDSA), −257 (RS256).
    var algorithm: Int
    /// Whether the passkey may be synced to the user's other devices (BE).
    var backupEligible: Bool
    /// Whether it was backed up at its last use (BS).
    var backedUp: Bool
    /// How the browser said it can reach the authenticator.
    var transports: [String]
    /// When it was added.
    var createdAt: Date
    /// Its last sign-in, if any.
    var lastUsedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, label, aaguid, authenticator, algorithm, transports
        case credentialID = "credential_id"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    init(_ stored: StoredPasskey) {
        id = stored.id
        credentialID = Base64URLBytes(stored.credentialID)
        label = stored.label
        aaguid = stored.aaguid
        authenticator = KnownAuthenticators.name(aaguid: stored.aaguid)
        algorithm = stored.algorithm
        backupEligible = stored.backupEligible
        backedUp = stored.backedUp
        transports = stored.transports
        createdAt = stored.createdAt
        lastUsedAt = stored.lastUsedAt
    }
}

/// `{"passkey": …}`.
struct PasskeyResponse: Codable, Sendable { var passkey: Passkey }

/// `{"passkeys": […]}`.
struct PasskeyListResponse: Codable, Sendable { var passkeys: [Passkey] }

/// The start of a passkey ceremony: its id (to name it when finishing) and the options for
/// `PublicKeyCredential.parseCreationOptionsFromJSON()` or `parseRequestOptionsFromJSON()`.
struct PasskeyCeremonyResponse<Options: Codable & Sendable>: Codable, Sendable {
    var ceremonyID: String
    var publicKey: Options

    enum CodingKeys: String, CodingKey {
        case ceremonyID = "ceremony_id"
        case publicKey = "public_key"
    }
}

/// `POST /v1/passkeys/authentication-options`: a username for a username-first sign-in, none
/// for a discoverable one (or passkey autofill).
struct PasskeyAuthenticationOptionsRequest: Codable, Sendable {
    var username: String?
}

/// `POST /v1/passkeys`: the browser's answer to the registration options.
struct RegisterPasskeyRequest: Codable, Sendable {
    var ceremonyID: String
    var credential: RegistrationResponseJSON
    var label: String?

    enum CodingKeys: String, CodingKey {
        case credential, label
        case ceremonyID = "ceremony_id"
    }
}

/// `POST /v1/sessions/passkey`, `POST /web/sign-in/passkey`: the browser's answer to the
/// authentication options.
struct PasskeySignInRequest: Codable, Sendable {
    var ceremonyID: String
    var credential: AuthenticationResponseJSON
    var sessionDurationMinutes: Int?

    enum CodingKeys: String, CodingKey {
        case credential
        case ceremonyID = "ceremony_id"
        case sessionDurationMinutes = "session_duration_minutes"
    }
}

/// `PATCH /v1/passkeys/{id}`, `PATCH /v1/biometric/registrations/{id}`.
struct RenameRequest: Codable, Sendable {
    var label: String
}

/// `GET /.well-known/webauthn` (WebAuthn Level 3 §5.11.1, related origins).
struct RelatedOriginsResponse: Codable, Sendable {
    var origins: [String]
}

/// `POST /web/confirmations/{id}/passkey`: a passkey's answer to the confirmation's ceremony.
struct ConfirmationPasskeyRequest: Codable, Sendable {
    var ceremonyID: String
    var credential: AuthenticationResponseJSON

    enum CodingKeys: String, CodingKey {
        case credential
        case ceremonyID = "ceremony_id"
    }
}
