import Foundation

// The JSON bodies clients send. Field names follow the contract (snake_case on the wire).

/// `POST /v1/users`
public struct CreateUserRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    /// Creates the body.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /v1/sessions/password`
public struct PasswordSignInRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    /// Requested lifetime in minutes (5…43200); the server default when absent.
    public var sessionDurationMinutes: Int?

    /// Creates the body.
    public init(username: String, password: String, sessionDurationMinutes: Int? = nil) {
        self.username = username
        self.password = password
        self.sessionDurationMinutes = sessionDurationMinutes
    }

    enum CodingKeys: String, CodingKey {
        case username, password
        case sessionDurationMinutes = "session_duration_minutes"
    }
}

/// `PUT /v1/users/me/pin`
public struct SetPINRequest: Codable, Sendable, Equatable {
    public var pin: String

    /// Creates the body.
    public init(pin: String) {
        self.pin = pin
    }
}

/// `POST /v1/sessions/pin`
public struct PINSignInRequest: Codable, Sendable, Equatable {
    public var username: String
    public var pin: String
    /// Requested lifetime in minutes (5…43200); the server default when absent.
    public var sessionDurationMinutes: Int?

    /// Creates the body.
    public init(username: String, pin: String, sessionDurationMinutes: Int? = nil) {
        self.username = username
        self.pin = pin
        self.sessionDurationMinutes = sessionDurationMinutes
    }

    enum CodingKeys: String, CodingKey {
        case username, pin
        case sessionDurationMinutes = "session_duration_minutes"
    }
}

/// `POST /v1/biometric/registrations`
public struct StartRegistrationRequest: Codable, Sendable, Equatable {
    /// `"ES256"` or `"Ed25519"`; kept as text so that an unknown name is answered with
    /// `unsupported_algorithm` rather than a generic decoding error.
    public var algorithm: String
    /// The public key in one of the algorithm's accepted encodings.
    public var publicKey: Base64URLBytes
    /// An optional label shown in registration lists.
    public var label: String?

    /// Creates the body.
    public init(algorithm: SignatureAlgorithm, publicKey: Data, label: String? = nil) {
        self.algorithm = algorithm.rawValue
        self.publicKey = Base64URLBytes(publicKey)
        self.label = label
    }

    enum CodingKeys: String, CodingKey {
        case algorithm, label
        case publicKey = "public_key"
    }
}

/// `POST /v1/biometric/registrations/{id}/verify`
public struct VerifyRegistrationRequest: Codable, Sendable, Equatable {
    /// The signature over the registration message.
    public var signature: Base64URLBytes

    /// Creates the body.
    public init(signature: Data) {
        self.signature = Base64URLBytes(signature)
    }
}

/// `POST /v1/biometric/challenges`
public struct CreateChallengeRequest: Codable, Sendable, Equatable {
    public var registrationID: String

    /// Creates the body.
    public init(registrationID: String) {
        self.registrationID = registrationID
    }

    enum CodingKeys: String, CodingKey {
        case registrationID = "registration_id"
    }
}

/// `POST /v1/sessions/biometric`
public struct BiometricSignInRequest: Codable, Sendable, Equatable {
    public var challengeID: String
    /// The signature over the authentication message.
    public var signature: Base64URLBytes
    /// Requested lifetime in minutes (5…43200); the server default when absent.
    public var sessionDurationMinutes: Int?

    /// Creates the body.
    public init(challengeID: String, signature: Data, sessionDurationMinutes: Int? = nil) {
        self.challengeID = challengeID
        self.signature = Base64URLBytes(signature)
        self.sessionDurationMinutes = sessionDurationMinutes
    }

    enum CodingKeys: String, CodingKey {
        case signature
        case challengeID = "challenge_id"
        case sessionDurationMinutes = "session_duration_minutes"
    }
}
