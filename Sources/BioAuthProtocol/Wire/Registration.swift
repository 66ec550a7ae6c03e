import Foundation

/// What a registered device key unlocks.
public struct RegistrationKind: OpenVocabulary {
    /// The text on the wire.
    public let rawValue: String

    /// The value with this text, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A key behind biometrics: it signs biometric sign-ins and re-authentications.
    public static let biometric = Self(rawValue: "biometric")
    /// A key that needs no biometric match: it signs PIN sign-ins, together with the PIN.
    public static let pin = Self(rawValue: "pin")

    /// The values this version knows.
    public static let allCases: [Self] = [.biometric, .pin]
}

/// A device key registration (biometric or PIN) as the API shows it.
public struct Registration: Codable, Sendable, Equatable {
    /// Where a registration is in its life.
    public struct Status: OpenVocabulary {
        /// The text on the wire.
        public let rawValue: String

        /// The value with this text, known to this version or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Created; the key has not yet proved possession by signing the challenge.
        public static let pending = Self(rawValue: "pending")
        /// Verified; the key can sign in.
        public static let active = Self(rawValue: "active")

        /// The values this version knows.
        public static let allCases: [Self] = [.pending, .active]
    }

    /// `reg_…`
    public var id: String
    /// What the key unlocks.
    public var kind: RegistrationKind
    /// The key's algorithm, fixed at registration.
    public var algorithm: SignatureAlgorithm
    /// A label the client chose (may be empty).
    public var label: String
    /// Pending or active.
    public var status: Status
    /// When the registration was started.
    public var createdAt: Date
    /// The last sign-in with this key, if any.
    public var lastUsedAt: Date?
    /// What the server found of the key's hardware evidence; nil when it does not look for any.
    public var attestation: KeyAttestationResult?

    /// Creates a registration value.
    public init(
        id: String,
        kind: RegistrationKind = .biometric,
        algorithm: SignatureAlgorithm,
        label: String,
        status: Status,
        createdAt: Date,
        lastUsedAt: Date?,
        attestation: KeyAttestationResult? = nil
    ) {
        self.id = id
        self.kind = kind
        self.algorithm = algorithm
        self.label = label
        self.status = status
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.attestation = attestation
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, algorithm, label, status, attestation
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}
