import Foundation

/// How a session was signed in.
public enum AuthenticationMethod: String, Codable, Sendable, CaseIterable {
    case password, pin, biometric
}

/// A session as the API shows it (never its token).
public struct Session: Codable, Sendable, Equatable {
    /// How the session was authenticated.
    public struct Authentication: Codable, Sendable, Equatable {
        /// The factor used.
        public var method: AuthenticationMethod
        /// The biometric registration that signed in, for `biometric` sessions.
        public var registrationID: String?

        /// Creates an authentication description.
        public init(method: AuthenticationMethod, registrationID: String? = nil) {
            self.method = method
            self.registrationID = registrationID
        }

        enum CodingKeys: String, CodingKey {
            case method
            case registrationID = "registration_id"
        }
    }

    /// `ses_…`
    public var id: String
    /// The owner.
    public var userID: String
    /// When it was created.
    public var createdAt: Date
    /// When it stops being valid.
    public var expiresAt: Date
    /// How it was signed in.
    public var authentication: Authentication

    /// Creates a session value.
    public init(id: String, userID: String, createdAt: Date, expiresAt: Date, authentication: Authentication) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.authentication = authentication
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case authentication
    }
}
