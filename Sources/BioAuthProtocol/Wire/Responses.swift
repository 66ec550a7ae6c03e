import Foundation

// The JSON bodies the server answers with.

/// `201` of `POST /v1/users`.
public struct UserResponse: Codable, Sendable, Equatable {
    /// The account.
    public var user: User

    /// Creates the body.
    public init(user: User) {
        self.user = user
    }
}

/// `200` of every sign-in: the new session and, once only, its bearer token.
public struct SignInResponse: Codable, Sendable, Equatable {
    /// The bearer token; shown only here, stored by the server only as a hash.
    public var sessionToken: String
    /// The session.
    public var session: Session
    /// The account.
    public var user: User

    /// Creates the body.
    public init(sessionToken: String, session: Session, user: User) {
        self.sessionToken = sessionToken
        self.session = session
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case session, user
        case sessionToken = "session_token"
    }
}

/// `200` of `GET /v1/sessions/current`.
public struct CurrentSessionResponse: Codable, Sendable, Equatable {
    /// The session.
    public var session: Session
    /// The account.
    public var user: User

    /// Creates the body.
    public init(session: Session, user: User) {
        self.session = session
        self.user = user
    }
}

/// `200` of `GET /v1/sessions`.
public struct SessionListResponse: Codable, Sendable, Equatable {
    /// The caller's live sessions.
    public var sessions: [Session]

    /// Creates the body.
    public init(sessions: [Session]) {
        self.sessions = sessions
    }
}

/// `201` of `POST /v1/biometric/registrations`: the registration challenge to sign.
public struct RegistrationStartResponse: Codable, Sendable, Equatable {
    /// The registration's id.
    public var registrationID: String
    /// The challenge to sign.
    public var challenge: Base64URLBytes
    /// When the challenge expires.
    public var expiresAt: Date

    /// Creates the body.
    public init(registrationID: String, challenge: Data, expiresAt: Date) {
        self.registrationID = registrationID
        self.challenge = Base64URLBytes(challenge)
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case challenge
        case registrationID = "registration_id"
        case expiresAt = "expires_at"
    }
}

/// `200` of `POST /v1/biometric/registrations/{id}/verify`.
public struct RegistrationResponse: Codable, Sendable, Equatable {
    /// The registration.
    public var registration: Registration

    /// Creates the body.
    public init(registration: Registration) {
        self.registration = registration
    }
}

/// `200` of `GET /v1/biometric/registrations`.
public struct RegistrationListResponse: Codable, Sendable, Equatable {
    /// The caller's registrations.
    public var registrations: [Registration]

    /// Creates the body.
    public init(registrations: [Registration]) {
        self.registrations = registrations
    }
}

/// `201` of `POST /v1/biometric/challenges`: the authentication challenge to sign.
public struct ChallengeResponse: Codable, Sendable, Equatable {
    /// The challenge's id, sent back with its signature.
    public var challengeID: String
    /// The challenge to sign.
    public var challenge: Base64URLBytes
    /// When the challenge expires.
    public var expiresAt: Date

    /// Creates the body.
    public init(challengeID: String, challenge: Data, expiresAt: Date) {
        self.challengeID = challengeID
        self.challenge = Base64URLBytes(challenge)
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case challenge
        case challengeID = "challenge_id"
        case expiresAt = "expires_at"
    }
}

/// `200` of `GET /v1/audit`.
public struct AuditEventListResponse: Codable, Sendable, Equatable {
    /// The account's audit events.
    public var events: [AuditEvent]

    /// Creates the body.
    public init(events: [AuditEvent]) {
        self.events = events
    }
}

/// `200` of `GET /health`.
public struct HealthResponse: Codable, Sendable, Equatable {
    /// `ok` while the server answers.
    public var status: String

    /// Creates the body.
    public init(status: String = "ok") {
        self.status = status
    }
}
