import BioAuthProtocol
import Foundation

/// Where every session starts: a fresh token and the session it opens.
enum NewSession {
    /// A new token and the session it would open (its sign-in its first authentication), not yet
    /// stored. The token is returned once and only its SHA-256 is stored.
    static func make(
        userID: String,
        authentication: Session.Authentication,
        minutes: Int,
        now: Date,
        stepUpAt: Date?
    ) -> (token: SessionToken, session: Session) {
        let idBytes = SecureRandom.identifierBytes()
        let session = Session(
            id: IdentifierPrefix.session.spelling(idBytes),
            userID: userID,
            createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(minutes * 60)),
            authentication: authentication,
            stepUpAt: stepUpAt
        )
        return (SessionToken.generate(sessionIDBytes: idBytes), session)
    }
}
