import Foundation

/// A user account as the API shows it.
public struct User: Codable, Sendable, Equatable {
    /// `usr_…`
    public var id: String
    /// The username as registered (NFKC-normalised).
    public var username: String
    /// When the account was created.
    public var createdAt: Date

    /// Creates a user value.
    public init(id: String, username: String, createdAt: Date) {
        self.id = id
        self.username = username
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username
        case createdAt = "created_at"
    }
}
