import BioAuthProtocol
import Foundation

/// What an access token says of a session: how and when it was authenticated.
struct SessionFacts: Sendable, Equatable {
    /// The factors it proved, its sign-in's first.
    var factors: [AuthenticationMethod]
    /// Its last authentication (sign-in or re-authentication).
    var authenticatedAt: Date
    /// When it last stepped up, if ever.
    var stepUpAt: Date?
    /// Whether the passkey that signed it in may be synced (backup-eligible); `nil` when no
    /// passkey signed it in.
    var passkeyBackupEligible: Bool?
}
