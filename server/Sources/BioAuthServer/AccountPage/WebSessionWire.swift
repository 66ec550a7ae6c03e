import BioAuthProtocol
import Foundation

/// A browser session as the account page sees it: never the token (an `HttpOnly` cookie holds
/// it), but the CSRF token the page must send with every change.
struct WebSessionResponse: Codable, Sendable, Equatable {
    var user: User
    var session: Session
    var csrfToken: String
    /// The WebAuthn user handle (base64url), for the page's `signalAllAcceptedCredentials`.
    var userHandle: Base64URLBytes
    /// The relying party's id, for the same.
    var rpID: String

    enum CodingKeys: String, CodingKey {
        case user, session
        case csrfToken = "csrf_token"
        case userHandle = "user_handle"
        case rpID = "rp_id"
    }
}
