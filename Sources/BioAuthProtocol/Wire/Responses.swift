import Foundation

// The JSON bodies the server answers with.

/// `201` of `POST /v1/users`.
public struct UserResponse: Codable, Sendable, Equatable {
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
    public var session: Session
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
    public var session: Session
    public var user: User

    /// Creates the body.
    public init(session: Session, user: User) {
        self.session = session
        self.user = user
    }
}

/// `200` of `GET /v1/sessions`.
public struct SessionListResponse: Codable, Sendable, Equatable {
    public var sessions: [Session]

    /// Creates the body.
    public init(sessions: [Session]) {
        self.sessions = sessions
    }
}

/// `201` of `POST /v1/biometric/registrations`: the registration challenge to sign.
public struct RegistrationStartResponse: Codable, Sendable, Equatable {
    public var registrationID: String
    public var challenge: Base64URLBytes
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
    public var registration: Registration

    /// Creates the body.
    public init(registration: Registration) {
        self.registration = registration
    }
}

/// `200` of `GET /v1/biometric/registrations`.
public struct RegistrationListResponse: Codable, Sendable, Equatable {
    public var registrations: [Registration]

    /// Creates the body.
    public init(registrations: [Registration]) {
        self.registrations = registrations
    }
}

/// `201` of `POST /v1/biometric/challenges`: the authentication challenge to sign.
public struct ChallengeResponse: Codable, Sendable, Equatable {
    public var challengeID: String
    public var challenge: Base64URLBytes
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
    public var events: [AuditEvent]

    /// Creates the body.
    public init(events: [AuditEvent]) {
        self.events = events
    }
}

/// `200` of `GET /health`.
public struct HealthResponse: Codable, Sendable, Equatable {
    public var status: String

    /// Creates the body.
    public init(status: String = "ok") {
        self.status = status
    }
}
