import Foundation

/// One entry of a user's audit trail.
public struct AuditEvent: Codable, Sendable, Equatable {
    /// What happened.
    public struct Kind: OpenVocabulary {
        /// The text on the wire.
        public let rawValue: String

        /// The value with this text, known to this version or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `user.created`.
        public static let userCreated = Self(rawValue: "user.created")
        /// `password.sign_in`.
        public static let passwordSignIn = Self(rawValue: "password.sign_in")
        /// `pin.set`.
        public static let pinSet = Self(rawValue: "pin.set")
        /// `pin.sign_in`.
        public static let pinSignIn = Self(rawValue: "pin.sign_in")
        /// `biometric.registration_started`.
        public static let registrationStarted = Self(rawValue: "biometric.registration_started")
        /// `biometric.registration_verified`.
        public static let registrationVerified = Self(rawValue: "biometric.registration_verified")
        /// `biometric.registration_deleted`.
        public static let registrationDeleted = Self(rawValue: "biometric.registration_deleted")
        /// `biometric.registration_renamed`.
        public static let registrationRenamed = Self(rawValue: "biometric.registration_renamed")
        /// A device key's hardware evidence was refused (under `prefer` the key registered anyway).
        public static let keyAttestationRefused = Self(rawValue: "biometric.key_attestation_refused")
        /// `passkey.registered`.
        public static let passkeyRegistered = Self(rawValue: "passkey.registered")
        /// `passkey.renamed`.
        public static let passkeyRenamed = Self(rawValue: "passkey.renamed")
        /// `passkey.deleted`.
        public static let passkeyDeleted = Self(rawValue: "passkey.deleted")
        /// `passkey.sign_in`.
        public static let passkeySignIn = Self(rawValue: "passkey.sign_in")
        /// A passkey's signature counter went backwards: the credential may have been cloned.
        public static let passkeyCloneSuspected = Self(rawValue: "passkey.clone_suspected")
        /// `biometric.sign_in`.
        public static let biometricSignIn = Self(rawValue: "biometric.sign_in")
        /// `session.signed_out`.
        public static let sessionSignedOut = Self(rawValue: "session.signed_out")
        /// `session.revoked`.
        public static let sessionRevoked = Self(rawValue: "session.revoked")
        /// `session.reauthenticated`.
        public static let sessionReauthenticated = Self(rawValue: "session.reauthenticated")
        /// `session.others_revoked`.
        public static let otherSessionsRevoked = Self(rawValue: "session.others_revoked")
        /// `password.changed`.
        public static let passwordChanged = Self(rawValue: "password.changed")
        /// `admin.sessions_revoked`.
        public static let adminSessionsRevoked = Self(rawValue: "admin.sessions_revoked")
        /// `admin.registrations_revoked`.
        public static let adminRegistrationsRevoked = Self(rawValue: "admin.registrations_revoked")
        /// `admin.factors_unlocked`.
        public static let adminFactorsUnlocked = Self(rawValue: "admin.factors_unlocked")
        /// `admin.password_reset`.
        public static let adminPasswordReset = Self(rawValue: "admin.password_reset")

        /// `confirmation.created`: the bank's backend asked the account to confirm something.
        public static let confirmationCreated = Self(rawValue: "confirmation.created")
        /// `confirmation.approved`: a confirmation approved (or, as a failure, a signature or PIN
        /// that did not hold).
        public static let confirmationApproved = Self(rawValue: "confirmation.approved")
        /// `confirmation.declined`: the user declined a confirmation.
        public static let confirmationDeclined = Self(rawValue: "confirmation.declined")
        /// The values this version knows.
        public static let allCases: [Self] = [
            .userCreated, .passwordSignIn, .pinSet, .pinSignIn, .registrationStarted, .registrationVerified, .registrationDeleted,
            .registrationRenamed, .keyAttestationRefused, .passkeyRegistered, .passkeyRenamed, .passkeyDeleted, .passkeySignIn,
            .passkeyCloneSuspected, .biometricSignIn, .sessionSignedOut, .sessionRevoked, .sessionReauthenticated, .otherSessionsRevoked,
            .passwordChanged, .adminSessionsRevoked, .adminRegistrationsRevoked, .adminFactorsUnlocked, .adminPasswordReset,
            .confirmationCreated, .confirmationApproved, .confirmationDeclined,
        ]
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
