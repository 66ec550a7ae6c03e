import Foundation

/// A biometric key registration as the API shows it.
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
    /// The key's algorithm, fixed at registration.
    public var algorithm: SignatureAlgorithm
    /// A label the client chose (may be empty).
    public var label: String
    /// Pending or active.
    public var status: Status
    /// When the registration was started.
    public var createdAt: Date
    /// The last biometric sign-in with this key, if any.
    public var lastUsedAt: Date?

    /// Creates a registration value.
    public init(id: String, algorithm: SignatureAlgorithm, label: String, status: Status, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.algorithm = algorithm
        self.label = label
        self.status = status
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, algorithm, label, status
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}
