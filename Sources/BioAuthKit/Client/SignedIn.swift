import Foundation

/// The result of a successful sign-in.
public struct SignedIn: Sendable, Equatable {
    /// Who signed in.
    public var user: User
    /// The new session (its token stays inside the client; see ``BioAuthClient/sessionToken``).
    public var session: Session
    /// What this sign-in cleaned up, if anything (see ``ReconciliationAction``).
    public var reconciliation: ReconciliationAction?

    /// Creates a value.
    public init(user: User, session: Session, reconciliation: ReconciliationAction? = nil) {
        self.user = user
        self.session = session
        self.reconciliation = reconciliation
    }
}
