import BioAuthProtocol
import BioAuthWebAuthn

/// `POST /v1/sessions/current/reauthenticate`'s body as the server reads it: the clients' form
/// (``ReauthenticateRequest``: the password, or a device key's signature) or a passkey's answer to
/// a ceremony from `POST /v1/sessions/current/reauthenticate/passkey-options`.
struct ReauthenticationBody: Codable, Sendable {
    var password: String?
    var challengeID: String?
    var signature: Base64URLBytes?
    var ceremonyID: String?
    var credential: AuthenticationResponseJSON?

    enum CodingKeys: String, CodingKey {
        case password, signature, credential
        case challengeID = "challenge_id"
        case ceremonyID = "ceremony_id"
    }
}
