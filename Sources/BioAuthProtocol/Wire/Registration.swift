import Foundation

/// What a registered device key unlocks.
public enum RegistrationKind: String, Codable, Sendable, CaseIterable {
    /// A key behind biometrics: it signs biometric sign-ins and re-authentications.
    case biometric
    /// A key that needs no biometric match: it signs PIN sign-ins, together with the PIN.
    case pin
}

/// A device key registration (biometric or PIN) as the API shows it.
public struct Registration: Codable, Sendable, Equatable {
    /// Where a registration is in its life.
    public enum Status: String, Codable, Sendable {
        /// Created; the key has not yet proved possession by signing the challenge.
        case pending
        /// Verified; the key can sign in.
        case active
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
