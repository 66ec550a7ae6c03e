/// One call of the contract: its method and path, named once for the server's router and every
/// client. Each name is the call's `operationId` in openapi.yaml.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// An HTTP method the contract uses.
    public enum Method: String, Hashable, Sendable {
        /// `GET`.
        case get = "GET"
        /// `POST`.
        case post = "POST"
        /// `PUT`.
        case put = "PUT"
        /// `PATCH`.
        case patch = "PATCH"
        /// `DELETE`.
        case delete = "DELETE"
    }

    /// The method.
    public let method: Method
    /// The path; `{id}` stands where an id goes.
    public let template: String

    private init(_ method: Method, _ template: String) {
        self.method = method
        self.template = template
    }

    /// The path, with `id` where `{id}` stands: an id exactly when the template has a place for one.
    public func path(_ id: String? = nil) -> String {
        guard let id else {
            precondition(!template.contains("{id}"), "\(template) needs an id")
            return template
        }
        precondition(template.contains("{id}"), "\(template) takes no id")
        return template.replacingOccurrences(of: "{id}", with: id)
    }

    /// `GET /v1/sessions/current`.
    public var description: String { "\(method.rawValue) \(template)" }

    /// `POST /v1/users`: sign up.
    public static let createUser = Endpoint(.post, "/v1/users")
    /// `PUT /v1/users/me/pin`: set the PIN (and register its device key).
    public static let setPin = Endpoint(.put, "/v1/users/me/pin")
    /// `PUT /v1/users/me/password`: change the password.
    public static let changePassword = Endpoint(.put, "/v1/users/me/password")
    /// `POST /v1/sessions/password`.
    public static let signInWithPassword = Endpoint(.post, "/v1/sessions/password")
    /// `POST /v1/sessions/pin`.
    public static let signInWithPin = Endpoint(.post, "/v1/sessions/pin")
    /// `POST /v1/sessions/biometric`.
    public static let signInWithBiometric = Endpoint(.post, "/v1/sessions/biometric")
    /// `GET /v1/sessions/current`.
    public static let getCurrentSession = Endpoint(.get, "/v1/sessions/current")
    /// `DELETE /v1/sessions/current`.
    public static let signOut = Endpoint(.delete, "/v1/sessions/current")
    /// `POST /v1/sessions/current/reauthenticate`.
    public static let reauthenticate = Endpoint(.post, "/v1/sessions/current/reauthenticate")
    /// `POST /v1/sessions/current/reauthenticate/passkey-options`: a passkey ceremony to re-authenticate the current session.
    public static let createReauthenticationPasskeyOptions = Endpoint(.post, "/v1/sessions/current/reauthenticate/passkey-options")
    /// `POST /v1/sessions/current/access-token`: a short-lived signed access token for the app's own backend.
    public static let createAccessToken = Endpoint(.post, "/v1/sessions/current/access-token")
    /// `DELETE /v1/sessions`: every session of the user but the caller's.
    public static let signOutElsewhere = Endpoint(.delete, "/v1/sessions")
    /// `GET /v1/sessions`.
    public static let listSessions = Endpoint(.get, "/v1/sessions")
    /// `DELETE /v1/sessions/{id}`.
    public static let revokeSession = Endpoint(.delete, "/v1/sessions/{id}")
    /// `POST /v1/biometric/registrations`.
    public static let startRegistration = Endpoint(.post, "/v1/biometric/registrations")
    /// `POST /v1/biometric/attestation-challenges`: a challenge to make a device key with, for its hardware evidence.
    public static let createAttestationChallenge = Endpoint(.post, "/v1/biometric/attestation-challenges")
    /// `GET /v1/biometric/registrations`.
    public static let listRegistrations = Endpoint(.get, "/v1/biometric/registrations")
    /// `POST /v1/biometric/registrations/{id}/verify`.
    public static let verifyRegistration = Endpoint(.post, "/v1/biometric/registrations/{id}/verify")
    /// `DELETE /v1/biometric/registrations/{id}`.
    public static let deleteRegistration = Endpoint(.delete, "/v1/biometric/registrations/{id}")
    /// `POST /v1/biometric/challenges`.
    public static let createChallenge = Endpoint(.post, "/v1/biometric/challenges")
    /// `PATCH /v1/biometric/registrations/{id}`: rename.
    public static let renameRegistration = Endpoint(.patch, "/v1/biometric/registrations/{id}")
    /// `POST /v1/passkeys/registration-options`: start adding a passkey.
    public static let createPasskeyRegistrationOptions = Endpoint(.post, "/v1/passkeys/registration-options")
    /// `POST /v1/passkeys`: finish adding a passkey.
    public static let registerPasskey = Endpoint(.post, "/v1/passkeys")
    /// `GET /v1/passkeys`.
    public static let listPasskeys = Endpoint(.get, "/v1/passkeys")
    /// `PATCH /v1/passkeys/{id}`: rename.
    public static let renamePasskey = Endpoint(.patch, "/v1/passkeys/{id}")
    /// `DELETE /v1/passkeys/{id}`.
    public static let deletePasskey = Endpoint(.delete, "/v1/passkeys/{id}")
    /// `POST /v1/passkeys/authentication-options`: start a passkey sign-in.
    public static let createPasskeyAuthenticationOptions = Endpoint(.post, "/v1/passkeys/authentication-options")
    /// `POST /v1/sessions/passkey`.
    public static let signInWithPasskey = Endpoint(.post, "/v1/sessions/passkey")
    /// `POST /web/sign-up`: sign up and start a browser session.
    public static let webSignUp = Endpoint(.post, "/web/sign-up")
    /// `POST /web/sign-in/password`: a browser session by password.
    public static let webSignInWithPassword = Endpoint(.post, "/web/sign-in/password")
    /// `POST /web/sign-in/passkey`: a browser session by passkey.
    public static let webSignInWithPasskey = Endpoint(.post, "/web/sign-in/passkey")
    /// `GET /web/session`: the browser's session.
    public static let getWebSession = Endpoint(.get, "/web/session")
    /// `POST /web/sign-out`: end the browser's session.
    public static let webSignOut = Endpoint(.post, "/web/sign-out")
    /// `GET /.well-known/webauthn`: the origins that may use this relying party's id.
    public static let getRelatedOrigins = Endpoint(.get, "/.well-known/webauthn")
    /// `POST /v1/service/confirmations`: the bank's backend asks an account to confirm (service credential).
    public static let createConfirmation = Endpoint(.post, "/v1/service/confirmations")
    /// `GET /v1/service/confirmations/{id}`: the bank's backend reads a confirmation's outcome (service credential).
    public static let getConfirmation = Endpoint(.get, "/v1/service/confirmations/{id}")
    /// `GET /v1/confirmations`: the account's pending confirmations, then its latest decided ones.
    public static let listConfirmations = Endpoint(.get, "/v1/confirmations")
    /// `POST /v1/confirmations/{id}/approve`: a device key's signature approves a confirmation.
    public static let approveConfirmation = Endpoint(.post, "/v1/confirmations/{id}/approve")
    /// `POST /v1/confirmations/{id}/decline`: the user declines a confirmation.
    public static let declineConfirmation = Endpoint(.post, "/v1/confirmations/{id}/decline")
    /// `POST /web/confirmations/{id}/passkey-options`: a passkey ceremony whose challenge is the confirmation's message (account page).
    public static let createConfirmationPasskeyOptions = Endpoint(.post, "/web/confirmations/{id}/passkey-options")
    /// `POST /web/confirmations/{id}/passkey`: a passkey assertion approves a confirmation (account page).
    public static let approveConfirmationWithPasskey = Endpoint(.post, "/web/confirmations/{id}/passkey")
    /// `GET /.well-known/jwks.json`: the keys access tokens are signed with (RFC 7517).
    public static let getKeySet = Endpoint(.get, "/.well-known/jwks.json")
    /// `GET /.well-known/oauth-authorization-server`: the issuer and where its key set is (RFC 8414).
    public static let getAuthorizationServerMetadata = Endpoint(.get, "/.well-known/oauth-authorization-server")
    /// `GET /`: the account page.
    public static let getAccountPage = Endpoint(.get, "/")
    /// `GET /assets/{id}`: one of the account page's files by name (`app.css`, `app.js` and the
    /// modules it imports).
    public static let getAccountAsset = Endpoint(.get, "/assets/{id}")
    /// `GET /v1/audit`.
    public static let listAuditEvents = Endpoint(.get, "/v1/audit")
    /// `GET /health`.
    public static let getHealth = Endpoint(.get, "/health")
    /// `GET /openapi.yaml`.
    public static let getOpenAPIDocument = Endpoint(.get, "/openapi.yaml")
}
