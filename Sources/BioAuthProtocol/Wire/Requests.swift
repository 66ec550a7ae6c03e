import Foundation

// The JSON bodies clients send. Field names follow the contract (snake_case on the wire).

/// `POST /v1/users`
public struct CreateUserRequest: Codable, Sendable, Equatable {
    /// The username, as typed.
    public var username: String
    /// The password.
    public var password: String

    /// Creates the body.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// `POST /v1/sessions/password`
public struct PasswordSignInRequest: Codable, Sendable, Equatable {
    /// The username, as typed.
    public var username: String
    /// The password.
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

/// `PUT /v1/users/me/pin`: a new PIN, bound to the device key that will sign every PIN sign-in.
///
/// The key needs no biometric match (the PIN is the user check); it proves possession of the
/// device by signing the registration challenge that the answer carries, exactly as a biometric
/// key does, and the PIN takes effect only then.
public struct SetPINRequest: Codable, Sendable, Equatable {
    /// 4–12 ASCII digits, not one of the most common PINs.
    public var pin: String
    /// `"ES256"` or `"Ed25519"`, as for ``StartRegistrationRequest/algorithm``.
    public var algorithm: String
    /// The device key's public key in one of the algorithm's accepted encodings.
    public var publicKey: Base64URLBytes
    /// An optional label shown in registration lists.
    public var label: String?
    /// The key's hardware evidence, when the app has it.
    public var keyAttestation: KeyAttestationEvidence?

    /// Creates the body.
    public init(pin: String, algorithm: SignatureAlgorithm, publicKey: Data, label: String? = nil, keyAttestation: KeyAttestationEvidence? = nil) {
        self.pin = pin
        self.algorithm = algorithm.rawValue
        self.publicKey = Base64URLBytes(publicKey)
        self.label = label
        self.keyAttestation = keyAttestation
    }

    enum CodingKeys: String, CodingKey {
        case pin, algorithm, label
        case publicKey = "public_key"
        case keyAttestation = "key_attestation"
    }
}

/// `POST /v1/sessions/pin`: the PIN together with the PIN device key's signature over a fresh
/// authentication challenge. The server checks the PIN only after the signature verified.
public struct PINSignInRequest: Codable, Sendable, Equatable {
    /// A challenge issued for the PIN registration (`POST /v1/biometric/challenges`).
    public var challengeID: String
    /// The PIN device key's signature over the authentication message.
    public var signature: Base64URLBytes
    /// The PIN the user typed.
    public var pin: String
    /// Requested lifetime in minutes (5…43200); the server default when absent.
    public var sessionDurationMinutes: Int?

    /// Creates the body.
    public init(challengeID: String, signature: Data, pin: String, sessionDurationMinutes: Int? = nil) {
        self.challengeID = challengeID
        self.signature = Base64URLBytes(signature)
        self.pin = pin
        self.sessionDurationMinutes = sessionDurationMinutes
    }

    enum CodingKeys: String, CodingKey {
        case signature, pin
        case challengeID = "challenge_id"
        case sessionDurationMinutes = "session_duration_minutes"
    }
}

/// `PUT /v1/users/me/password`
public struct ChangePasswordRequest: Codable, Sendable, Equatable {
    /// The password the account has now; not needed by a session signed in with a one-time
    /// password (its sign-in spent that password).
    public var currentPassword: String?
    /// The new one (8–256 characters).
    public var newPassword: String

    /// Creates the body.
    public init(currentPassword: String?, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

/// `POST /v1/sessions/current/reauthenticate`: proves a recent primary authentication on the
/// current session, with exactly one of the password or a biometric signature.
public struct ReauthenticateRequest: Codable, Sendable, Equatable {
    /// The account's password.
    public var password: String?
    /// A challenge issued for one of the caller's biometric registrations.
    public var challengeID: String?
    /// That registration's key's signature over the authentication message.
    public var signature: Base64URLBytes?

    /// Re-authenticates with the password.
    public init(password: String) {
        self.password = password
    }

    /// Re-authenticates with a biometric signature over a fresh challenge.
    public init(challengeID: String, signature: Data) {
        self.challengeID = challengeID
        self.signature = Base64URLBytes(signature)
    }

    enum CodingKeys: String, CodingKey {
        case password, signature
        case challengeID = "challenge_id"
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
    /// The key's hardware evidence, when the app has it.
    public var keyAttestation: KeyAttestationEvidence?

    /// Creates the body.
    public init(algorithm: SignatureAlgorithm, publicKey: Data, label: String? = nil, keyAttestation: KeyAttestationEvidence? = nil) {
        self.algorithm = algorithm.rawValue
        self.publicKey = Base64URLBytes(publicKey)
        self.label = label
        self.keyAttestation = keyAttestation
    }

    enum CodingKeys: String, CodingKey {
        case algorithm, label
        case publicKey = "public_key"
        case keyAttestation = "key_attestation"
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
    /// The registration's id.
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
    /// The challenge's id, sent back with its signature.
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
