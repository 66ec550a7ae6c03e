import Foundation

/// One entry of a user's audit trail.
public struct AuditEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case userCreated = "user.created"
        case passwordSignIn = "password.sign_in"
        case pinSet = "pin.set"
        case pinSignIn = "pin.sign_in"
        case registrationStarted = "biometric.registration_started"
        case registrationVerified = "biometric.registration_verified"
        case registrationDeleted = "biometric.registration_deleted"
        case registrationRenamed = "biometric.registration_renamed"
        /// A device key's hardware evidence was refused (under `prefer` the key registered anyway).
        case keyAttestationRefused = "biometric.key_attestation_refused"
        case passkeyRegistered = "passkey.registered"
        case passkeyRenamed = "passkey.renamed"
        case passkeyDeleted = "passkey.deleted"
        case passkeySignIn = "passkey.sign_in"
        /// A passkey's signature counter went backwards: the credential may have been cloned.
        case passkeyCloneSuspected = "passkey.clone_suspected"
        case biometricSignIn = "biometric.sign_in"
        case sessionSignedOut = "session.signed_out"
        case sessionRevoked = "session.revoked"
        case sessionReauthenticated = "session.reauthenticated"
        case otherSessionsRevoked = "session.others_revoked"
        case passwordChanged = "password.changed"
        case adminSessionsRevoked = "admin.sessions_revoked"
        case adminRegistrationsRevoked = "admin.registrations_revoked"
        case adminFactorsUnlocked = "admin.factors_unlocked"
        case adminPasswordReset = "admin.password_reset"
    }

    /// How it ended.
    public enum Outcome: String, Codable, Sendable {
        case success, failure, locked
    }

    /// `evt_…`
    public var id: String
    /// What happened.
    public var type: Kind
    /// How it ended.
    public var outcome: Outcome
    /// When it happened.
    public var createdAt: Date
    /// The registration involved, if any.
    public var registrationID: String?
    /// The passkey involved, if any.
    public var passkeyID: String?
    /// The session involved, if any.
    public var sessionID: String?
    /// For a counted event: how many attempts it stands for. Failures by callers who have not
    /// proved they own the account are counted per hour, not written one event each, so that
    /// nobody can flood a trail; ``createdAt`` is then the latest of them.
    public var count: Int?

    /// Creates an event value.
    public init(
        id: String,
        type: Kind,
        outcome: Outcome,
        createdAt: Date,
        registrationID: String? = nil,
        passkeyID: String? = nil,
        sessionID: String? = nil,
        count: Int? = nil
    ) {
        self.id = id
        self.type = type
        self.outcome = outcome
        self.createdAt = createdAt
        self.registrationID = registrationID
        self.passkeyID = passkeyID
        self.sessionID = sessionID
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case id, type, outcome, count
        case createdAt = "created_at"
        case registrationID = "registration_id"
        case passkeyID = "passkey_id"
        case sessionID = "session_id"
    }
}
