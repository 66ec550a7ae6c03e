import BioAuthProtocol

/// The single-use challenge a proof answered.
enum ChallengeToSpend: Sendable, Equatable {
    /// A device key's authentication challenge (``AuthenticationChallenge``): its id is recorded as spent.
    case authentication(AuthenticationChallenge)
    /// A passkey ceremony's challenge: its row is deleted.
    case webAuthn(ceremonyID: String, ceremony: Ceremony)
}
