import Foundation

/// How a session was signed in.
public struct AuthenticationMethod: OpenVocabulary {
    /// The text on the wire.
    public let rawValue: String

    /// The value with this text, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `password`.
    public static let password = Self(rawValue: "password")
    /// `pin`.
    public static let pin = Self(rawValue: "pin")
    /// `biometric`.
    public static let biometric = Self(rawValue: "biometric")
    /// A WebAuthn passkey (browser or platform authenticator).
    public static let passkey = Self(rawValue: "passkey")

    /// The values this version knows.
    public static let allCases: [Self] = [.password, .pin, .biometric, .passkey]
}

/// A session as the API shows it (never its token).
public struct Session: Codable, Sendable, Equatable {
    /// How the session was authenticated.
    public struct Authentication: Codable, Sendable, Equatable {
        /// The factor used.
        public var method: AuthenticationMethod
        /// The device key that signed in, for `biometric` and `pin` sessions.
        public var registrationID: String?
        /// The passkey that signed in, for `passkey` sessions.
        public var passkeyID: String?

        /// Creates an authentication description.
        public init(method: AuthenticationMethod, registrationID: String? = nil, passkeyID: String? = nil) {
            self.method = method
            self.registrationID = registrationID
            self.passkeyID = passkeyID
        }

        enum CodingKeys: String, CodingKey {
            case method
            case registrationID = "registration_id"
            case passkeyID = "passkey_id"
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
    /// The session's last authentication: its sign-in, or a later re-authentication.
    public var authenticatedAt: Date
    /// The factors the session has proven, its sign-in's first, then each re-authentication's
    /// (each once): `[.pin]`, `[.pin, .password]`.
    public var factors: [AuthenticationMethod]
    /// The last time the session proved a factor strong enough to change credentials (the
    /// password, a biometric key or a passkey; not the PIN); `nil` if it never did. Adding or
    /// changing a credential needs it to be recent (step-up).
    public var stepUpAt: Date?
    /// The session was signed in with a one-time password: until the password is changed it may
    /// only change the password, look at itself and sign out.
    public var passwordChangeRequired: Bool

    /// Creates a session value.
    public init(
        id: String,
        userID: String,
        createdAt: Date,
        expiresAt: Date,
        authentication: Authentication,
        authenticatedAt: Date? = nil,
        factors: [AuthenticationMethod]? = nil,
        stepUpAt: Date? = nil,
        passwordChangeRequired: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.authentication = authentication
        self.authenticatedAt = authenticatedAt ?? createdAt
        self.factors = factors ?? [authentication.method]
        self.stepUpAt = stepUpAt
        self.passwordChangeRequired = passwordChangeRequired
    }

    /// Decodes the contract's JSON form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        userID = try container.decode(String.self, forKey: .userID)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        authentication = try container.decode(Authentication.self, forKey: .authentication)
        authenticatedAt = try container.decode(Date.self, forKey: .authenticatedAt)
        factors = try container.decodeIfPresent([AuthenticationMethod].self, forKey: .factors) ?? [authentication.method]
        stepUpAt = try container.decodeIfPresent(Date.self, forKey: .stepUpAt)
        passwordChangeRequired = try container.decodeIfPresent(Bool.self, forKey: .passwordChangeRequired) ?? false
    }

    /// Encodes the contract's JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(userID, forKey: .userID)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(authentication, forKey: .authentication)
        try container.encode(authenticatedAt, forKey: .authenticatedAt)
        try container.encode(factors, forKey: .factors)
        try container.encodeIfPresent(stepUpAt, forKey: .stepUpAt)
        // Present only when true, so that ordinary sessions read as before.
        if passwordChangeRequired { try container.encode(true, forKey: .passwordChangeRequired) }
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case authentication
        case authenticatedAt = "authenticated_at"
        case factors
        case stepUpAt = "step_up_at"
        case passwordChangeRequired = "password_change_required"
    }
}
