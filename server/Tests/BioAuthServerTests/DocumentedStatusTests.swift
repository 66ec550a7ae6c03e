import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer
@testable import BioAuthWebAuthn

/// The other half of holding server and document together: every status the document promises
/// for an operation is one the server really gives. One tour drives each operation into each of
/// its documented answers; the client records what it saw, and the test compares with the
/// document.
@Suite("Documented statuses")
struct DocumentedStatusTests {
    /// Documented but not produced by client input, each for a stated reason.
    static func isExempt(_ pair: String) -> Bool {
        // 500 is documented so clients know the shape; client input never causes it.
        if pair.hasSuffix(" 500") { return true }
        // 503 comes from load or an unreachable database, not from the request; HashingBudgetTests
        // produce it.
        if pair.hasSuffix(" 503") { return true }
        return false
    }

    /// The confirmations' answers, on a server of their own: what each operation of
    /// docs/protocol/CONFIRMATIONS.md answers besides the statuses every operation shares.
    static func confirmationTour(huge: Data, garbage: Data) async throws -> Set<String> {
        try await TestServer.run { server in
            let api = server.api
            let (account, key, registration) = try await api.newAccountWithKey()
            let token = account.sessionToken
            let credential = try await server.serviceCredential()
            let create = Endpoint.createConfirmation.path()
            let body = CreateConfirmationRequest(userID: account.user.id, details: examplePayment)
            try await api.call(.post, create, json: body, token: credential)
            try await api.call(.post, create, json: body)
            try await api.call(.post, create, raw: garbage, token: credential)
            try await api.call(.post, create, raw: huge, token: credential)
            try await api.call(.post, create, json: CreateConfirmationRequest(userID: "usr_0", details: examplePayment), token: credential)
            let confirmation = try await server.confirmation(for: account.user.id, credential: credential)
            try await api.call(.get, Endpoint.getConfirmation.path(confirmation.id), token: credential)
            try await api.call(.get, Endpoint.getConfirmation.path(confirmation.id))
            try await api.call(.get, Endpoint.getConfirmation.path("cnf_0"), token: credential)
            try await api.call(.get, Endpoint.listConfirmations.path(), token: token)
            try await api.call(.get, Endpoint.listConfirmations.path())
            let approve = Endpoint.approveConfirmation.path(confirmation.id)
            let (signed, _) = try await api.signedApproval(confirmation, key: key, registrationID: registration.id)
            try await api.call(.post, approve, raw: garbage, token: token)
            try await api.call(.post, approve, raw: huge, token: token)
            try await api.call(.post, approve, json: signed, token: try await api.newAccount().sessionToken)
            try await api.call(.post, approve, json: signed)
            try await api.call(
                .post,
                approve,
                json: try await api.signedApproval(confirmation, key: key, registrationID: registration.id, pin: "3917").body,
                token: token
            )
            var bent = signed
            bent.signature = Base64URLBytes(Data([1, 2, 3]))
            try await api.call(.post, approve, json: bent, token: token)
            try await api.call(.post, approve, json: signed, token: token)
            try await api.call(.post, approve, json: signed, token: token)
            let decline = Endpoint.declineConfirmation.path(confirmation.id)
            try await api.call(.post, decline, token: token)
            try await api.call(.post, decline)
            try await api.call(.post, Endpoint.declineConfirmation.path("cnf_0"), token: token)
            try await api.call(.post, Endpoint.declineConfirmation.path(try await server.confirmation(for: account.user.id).id), token: token)
            return api.recorded.all
        }
    }

    @Test("every documented status of every operation is produced by the server")
    func everyDocumentedStatusIsReachable() async throws {
        // A low per-address limit, so that the tour can end by exceeding it.
        try await TestServer.run(configure: {
            $0.lockoutThreshold = 1
            $0.requestsPerMinutePerAddress = 150
            $0.maxHeaderBytes = 4_096
            $0.stepUpWindow = .seconds(60 * 60)
            $0.defaultSessionMinutes = 43_200
        }) { server in
            let api = server.api
            let huge = Data(#"{"x": "\#(String(repeating: "a", count: 70_000))"}"#.utf8)
            func concretePath(_ template: String) -> String {
                template.replacingOccurrences(of: "{id}", with: "reg_00000000000000000000000000000000")
            }
            let garbage = Data("{".utf8)

            // Accounts.
            let user = try await api.signUp("tourist", password: "correct horse battery")
            try await api.call(.post, "/v1/users", json: CreateUserRequest(username: "tourist", password: "correct horse battery"))
            try await api.call(.post, "/v1/users", raw: garbage)
            try await api.call(.post, "/v1/users", raw: huge)

            let session = try await api.signIn(user.username)
            let token = session.sessionToken
            try await api.call(.post, "/v1/sessions/password", raw: garbage)
            try await api.call(.post, "/v1/sessions/password", raw: huge)
            let pinDevice = try await api.setPIN("3917", token: token)
            let pinKey = SoftwareDeviceKey.es256()
            try await api.call(
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "x", algorithm: .es256, publicKey: pinKey.publicKey()),
                token: token
            )
            try await api.call(
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "1234", algorithm: .es256, publicKey: pinKey.publicKey()),
                token: token
            )
            try await api.call(.put, "/v1/users/me/pin", json: SetPINRequest(pin: "3917", algorithm: .es256, publicKey: pinKey.publicKey()))
            try await api.call(.put, "/v1/users/me/pin", raw: huge, token: token)
            try await api.call(
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "3917", algorithm: .es256, publicKey: pinDevice.key.publicKey()),
                token: token
            )
            try await api.pinSignIn(pinDevice, pin: "3917")
            try await api.pinSignIn(pinDevice, pin: "3918")  // locks the PIN (threshold 1)
            try await api.call(.post, "/v1/sessions/pin", json: try await api.pinSignInBody(pinDevice, pin: "3917", signingKey: .es256()))
            try await api.call(.post, "/v1/sessions/pin", raw: Data(#"{"username":"tourist","pin":"3917"}"#.utf8))
            try await api.call(.post, "/v1/sessions/pin", raw: garbage)
            try await api.call(.post, "/v1/sessions/pin", raw: huge)

            // The password change and re-authentication; each wrong password locks (threshold 1).
            try await api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "wrong password", newPassword: "new password 1"),
                token: token
            )
            server.clock.advance(seconds: 15 * 60)
            try await api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "short"),
                token: token
            )
            try await api.call(.put, "/v1/users/me/password", raw: garbage, token: token)
            try await api.call(.put, "/v1/users/me/password", raw: huge, token: token)
            try await api.call(.put, "/v1/users/me/password", json: ChangePasswordRequest(currentPassword: "x", newPassword: "new password 1"))
            try await api.call(
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(password: "correct horse battery"),
                token: token
            )
            try await api.call(.post, "/v1/sessions/current/reauthenticate", json: ReauthenticateRequest(password: "wrong password"), token: token)
            try await api.call(
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(password: "correct horse battery"),
                token: token
            )
            try await api.call(.post, "/v1/sessions/current/reauthenticate", raw: Data("{}".utf8), token: token)
            try await api.call(.post, "/v1/sessions/current/reauthenticate", raw: huge, token: token)
            try await api.call(
                .post,
                "/v1/sessions/current/reauthenticate",
                json: ReauthenticateRequest(challengeID: "chl_none", signature: Data(count: 64)),
                token: token
            )
            try await api.call(.post, "/v1/sessions/current/reauthenticate", json: ReauthenticateRequest(password: "x"))
            server.clock.advance(seconds: 15 * 60)
            try await api.call(.delete, "/v1/sessions", token: token)
            try await api.call(.delete, "/v1/sessions")

            // Biometrics.
            let key = SoftwareDeviceKey.es256()
            let registration = try await api.register(key, token: token)
            try await api.call(
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: key.publicKey()),
                token: token
            )
            try await api.call(.post, "/v1/biometric/registrations", raw: garbage, token: token)
            try await api.call(.post, "/v1/biometric/registrations", raw: garbage)
            try await api.call(.post, "/v1/biometric/registrations", raw: huge, token: token)
            let pending = try await api.startRegistration(.ed25519(), token: token)
            let verifyPath = "/v1/biometric/registrations/\(pending.registrationID)/verify"
            try await api.call(.post, verifyPath, json: VerifyRegistrationRequest(signature: Data(count: 3)), token: token)
            try await api.call(.post, verifyPath, raw: huge, token: token)
            try await api.call(.post, verifyPath, json: VerifyRegistrationRequest(signature: Data(count: 64)), token: token)  // 401 signature_invalid
            try await api.call(
                .post,
                "/v1/biometric/registrations/reg_none/verify",
                json: VerifyRegistrationRequest(signature: Data(count: 64)),
                token: token
            )
            try await api.call(.get, "/v1/biometric/registrations", token: token)
            try await api.call(.get, "/v1/biometric/registrations")
            try await api.call(.post, "/v1/biometric/attestation-challenges", token: token)
            try await api.call(.post, "/v1/biometric/attestation-challenges")

            try await api.call(.post, "/v1/biometric/challenges", raw: garbage)
            try await api.call(.post, "/v1/biometric/challenges", raw: huge)
            try await api.call(.post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: "reg_none"))
            let biometric = try await api.biometricSignIn(key, registrationID: registration.id)
            try await api.call(.post, "/v1/sessions/biometric", raw: garbage)
            try await api.call(.post, "/v1/sessions/biometric", raw: huge)
            try await api.call(.post, "/v1/sessions/biometric", json: BiometricSignInRequest(challengeID: "chl_none", signature: Data(count: 64)))

            // Passkeys and the account page, in a fresh minute of the per-address limit.
            server.clock.advance(seconds: 60)
            let page: HTTPFields = [.origin: APIClient.origin]
            let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
            let passkey = try await api.addPasskey(authenticator, token: token)
            let registrationCeremony = try await api.passkeyRegistrationOptions(token: token)
            var forged = try SoftwareAuthenticator(origin: "https://evil.example").register(registrationCeremony.publicKey)
            try await api.call(
                .post,
                "/v1/passkeys",
                json: RegisterPasskeyRequest(ceremonyID: registrationCeremony.ceremonyID, credential: forged),
                token: token
            )
            try await api.call(
                .post,
                "/v1/passkeys",
                json: RegisterPasskeyRequest(ceremonyID: registrationCeremony.ceremonyID, credential: forged),
                token: token
            )
            let again = try await api.passkeyRegistrationOptions(token: token)
            forged = try PasskeyTests.withCredentialID(
                authenticator.credentials[0].id,
                try SoftwareAuthenticator(origin: APIClient.origin).register(again.publicKey)
            )
            try await api.call(.post, "/v1/passkeys", json: RegisterPasskeyRequest(ceremonyID: again.ceremonyID, credential: forged), token: token)
            try await api.call(.post, "/v1/passkeys", raw: huge, token: token)
            try await api.call(.post, "/v1/passkeys", raw: garbage)
            try await api.call(.post, "/v1/passkeys/registration-options")
            try await api.call(.get, "/v1/passkeys", token: token)
            try await api.call(.get, "/v1/passkeys")
            try await api.call(.patch, "/v1/passkeys/\(passkey.id)", json: RenameRequest(label: "work"), token: token)
            try await api.call(.patch, "/v1/passkeys/\(passkey.id)", json: RenameRequest(label: String(repeating: "l", count: 65)), token: token)
            try await api.call(.patch, "/v1/passkeys/pk_00000000000000000000000000000000", json: RenameRequest(label: "x"), token: token)
            try await api.call(.patch, "/v1/passkeys/\(passkey.id)", raw: huge, token: token)
            try await api.call(.patch, "/v1/passkeys/\(passkey.id)", json: RenameRequest(label: "x"))
            try await api.call(.patch, "/v1/biometric/registrations/\(registration.id)", json: RenameRequest(label: "phone"), token: token)
            try await api.call(
                .patch,
                "/v1/biometric/registrations/\(registration.id)",
                json: RenameRequest(label: String(repeating: "l", count: 65)),
                token: token
            )
            try await api.call(
                .patch,
                "/v1/biometric/registrations/reg_00000000000000000000000000000000",
                json: RenameRequest(label: "x"),
                token: token
            )
            try await api.call(.patch, "/v1/biometric/registrations/\(registration.id)", raw: huge, token: token)
            try await api.call(.patch, "/v1/biometric/registrations/\(registration.id)", json: RenameRequest(label: "x"))
            try await api.passkeySignIn(authenticator)
            let signInCeremony = try await api.passkeyAuthenticationOptions(username: user.username)
            try await api.call(.post, "/v1/passkeys/authentication-options", raw: garbage)
            try await api.call(.post, "/v1/passkeys/authentication-options", raw: huge)
            try await api.call(.post, "/v1/sessions/passkey", raw: garbage)
            try await api.call(.post, "/v1/sessions/passkey", raw: huge)
            try await api.call(
                .post,
                "/v1/sessions/passkey",
                json: PasskeySignInRequest(ceremonyID: "wac_none", credential: try authenticator.authenticate(signInCeremony.publicKey))
            )
            try await api.call(.get, "/.well-known/webauthn")
            try await api.call(.get, "/.well-known/jwks.json")
            try await api.call(.get, "/.well-known/oauth-authorization-server")
            try await api.call(.post, "/v1/sessions/current/access-token", token: token)
            try await api.call(.post, "/v1/sessions/current/access-token")
            for asset in ["/", "/assets/app.js", "/assets/app.css", "/assets/no-such-file.js"] { try await api.call(.get, asset) }

            // The account page's browser session (its cookie calls are tested in BrowserSessionTests).
            try await api.call(
                .post,
                "/web/sign-up",
                json: CreateUserRequest(username: "page-tourist", password: "correct horse battery"),
                headers: page
            )
            try await api.call(
                .post,
                "/web/sign-up",
                json: CreateUserRequest(username: "page-tourist", password: "correct horse battery"),
                headers: page
            )
            try await api.call(.post, "/web/sign-up", json: CreateUserRequest(username: "page-tourist-2", password: "correct horse battery"))
            try await api.call(.post, "/web/sign-up", raw: garbage, headers: page)
            try await api.call(.post, "/web/sign-up", raw: huge, headers: page)
            try await api.call(
                .post,
                "/web/sign-in/password",
                json: PasswordSignInRequest(username: "page-tourist", password: "correct horse battery"),
                headers: page
            )
            try await api.call(
                .post,
                "/web/sign-in/password",
                json: PasswordSignInRequest(username: "page-tourist", password: "correct horse battery")
            )
            try await api.call(.post, "/web/sign-in/password", raw: garbage, headers: page)
            try await api.call(.post, "/web/sign-in/password", raw: huge, headers: page)
            for _ in 0..<2 {  // a wrong password, then the lock (threshold 1)
                try await api.call(
                    .post,
                    "/web/sign-in/password",
                    json: PasswordSignInRequest(username: "page-tourist", password: "wrong password!"),
                    headers: page
                )
            }
            let webCeremony = try await api.passkeyAuthenticationOptions()
            try await api.call(
                .post,
                "/web/sign-in/passkey",
                json: PasskeySignInRequest(ceremonyID: webCeremony.ceremonyID, credential: try authenticator.authenticate(webCeremony.publicKey)),
                headers: page
            )
            try await api.call(
                .post,
                "/web/sign-in/passkey",
                json: PasskeySignInRequest(ceremonyID: webCeremony.ceremonyID, credential: try authenticator.authenticate(webCeremony.publicKey)),
                headers: page
            )
            try await api.call(.post, "/web/sign-in/passkey", raw: garbage, headers: page)
            try await api.call(.post, "/web/sign-in/passkey", raw: huge, headers: page)
            try await api.call(.post, "/web/sign-in/passkey", raw: garbage)
            try await api.call(.get, "/web/session", token: token)
            try await api.call(.get, "/web/session")
            try await api.call(.post, "/web/sign-out")
            try await api.call(.post, "/web/sign-out", token: try await api.passkeySignIn(authenticator).decode(SignInResponse.self).sessionToken)
            try await api.call(.delete, "/v1/passkeys/\(passkey.id)", token: token)
            try await api.call(.delete, "/v1/passkeys/\(passkey.id)", token: token)
            try await api.call(.delete, "/v1/passkeys/\(passkey.id)")
            server.clock.advance(seconds: 60)

            // Sessions and audit.
            try await api.call(.get, "/v1/sessions/current", token: token)
            try await api.call(.get, "/v1/sessions/current")
            try await api.call(.get, "/v1/sessions", token: token)
            try await api.call(.get, "/v1/sessions")
            try await api.call(.get, "/v1/audit", token: token)
            try await api.call(.get, "/v1/audit")
            try await api.call(.delete, "/v1/sessions/\(biometric.session.id)", token: token)
            try await api.call(.delete, "/v1/sessions/\(biometric.session.id)", token: token)
            try await api.call(.delete, "/v1/sessions/\(biometric.session.id)")
            try await api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: token)
            try await api.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: token)
            try await api.call(.delete, "/v1/biometric/registrations/\(registration.id)")
            try await api.call(.get, "/health")
            try await api.call(.get, "/openapi.yaml")
            try await api.call(.delete, "/v1/sessions/current", token: token)
            try await api.call(.delete, "/v1/sessions/current", token: token)

            // Step-up: past the window, credential changes need a re-authentication first.
            let late = try await api.signIn(user.username).sessionToken
            server.clock.advance(seconds: 61 * 60)
            try await api.call(
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: late
            )
            try await api.call(
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "3917", algorithm: .es256, publicKey: pinKey.publicKey()),
                token: late
            )
            try await api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "new password 1"),
                token: late
            )
            try await api.call(.post, "/v1/passkeys/registration-options", token: late)

            // Lockout (threshold 1 here): a wrong secret, then the lock; the third PIN lock in a row
            // holds until a password sign-in.
            for _ in 0..<2 {
                try await api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
            }
            for number in 0..<3 {
                // Each lock in a row lasts twice as long as the one before.
                server.clock.advance(seconds: TimeInterval(LockoutPolicy().lockMilliseconds(number: max(1, number)) / 1000))
                try await api.pinSignIn(pinDevice, pin: "0000")
            }
            try await api.pinSignIn(pinDevice, pin: "3917")
            server.clock.advance(seconds: 15 * 60)

            // A one-time password from the support desk: that session may only change the password.
            let oneTime = try await server.administration.resetPassword(try await server.administration.account(user.username)).password
            let restricted = try await api.signIn(user.username, password: oneTime).sessionToken
            for operation in OpenAPIContract.shared.operations
            where !CallerRequiredMiddleware.allowedBeforePasswordChange.map(\.description).contains("\(operation.method) \(operation.path)") {
                try await api.call(HTTPRequest.Method(operation.method)!, concretePath(operation.path), token: restricted)
            }
            try await api.call(
                .put,
                "/v1/users/me/password",
                json: ChangePasswordRequest(currentPassword: oneTime, newPassword: "correct horse battery"),
                token: restricted
            )

            // Every operation, with a request head over the limit: 400 invalid_request.
            let operations = OpenAPIContract.shared.operations
            let padding: HTTPFields = [.init("X-Padding")!: String(repeating: "p", count: 5_000)]
            for operation in operations {
                try await api.call(HTTPRequest.Method(operation.method)!, concretePath(operation.path), token: token, headers: padding)
            }

            // Then past the per-address request limit: every operation answers 429 rate_limited.
            var limited = false
            for _ in 0..<200 where !limited {
                limited = try await api.call(.get, "/health").errorCode == .rateLimited
            }
            #expect(limited)
            for operation in operations {
                try await api.call(HTTPRequest.Method(operation.method)!, concretePath(operation.path), token: token)
            }

            let documented = Set(
                OpenAPIContract.shared.operations.flatMap { operation in
                    operation.statuses.map { "\(operation.operationID) \($0)" }
                }
            ).filter { !Self.isExempt($0) }
            // A passkey limit the tour's own account does not reach: an account at the limit.
            let atLimit = try await TestServer.run(configure: { $0.maxRegistrationsPerUser = 1 }) { small in
                let account = try await small.api.newAccount()
                try await small.api.addPasskey(SoftwareAuthenticator(origin: APIClient.origin), token: account.sessionToken)
                try await small.api.call(.post, "/v1/passkeys/registration-options", token: account.sessionToken)
                return small.api.recorded.all
            }
            // Account states the tour's own account never reaches: a password change pending (every
            // factor but the one-time password is 403), a password locked for good (threshold 1
            // here, and the first failure its last), and re-authentication by passkey.
            let states = try await TestServer.run(configure: { $0.passwordMaxFailures = 1 }) { other in
                let api = other.api
                let (account, key, registration) = try await api.newAccountWithKey()
                let device = try await api.setPIN("3917", token: account.sessionToken)
                let authenticator = SoftwareAuthenticator(origin: APIClient.origin)
                try await api.addPasskey(authenticator, token: account.sessionToken)
                try await api.call(.post, "/v1/sessions/current/reauthenticate/passkey-options", token: account.sessionToken)
                try await api.call(.post, "/v1/sessions/current/reauthenticate/passkey-options")
                try await api.call(.post, "/v1/sessions/current/reauthenticate/passkey-options", token: try await api.newAccount().sessionToken)
                _ = try await other.administration.resetPassword(try await other.administration.account(account.user.id))
                try await api.call(.post, "/v1/sessions/biometric", json: try await api.signedAuthentication(key, registrationID: registration.id))
                try await api.pinSignIn(device, pin: "3917")
                try await api.passkeySignIn(authenticator)
                let ceremony = try await api.passkeyAuthenticationOptions()
                try await api.call(
                    .post,
                    "/web/sign-in/passkey",
                    json: PasskeySignInRequest(
                        ceremonyID: ceremony.ceremonyID,
                        credential: try authenticator.authenticate(ceremony.publicKey)
                    ),
                    headers: [.origin: APIClient.origin]
                )

                // A browser session's change without the page's CSRF token.
                let page = try await BrowserSessionTests.signUp(api)
                try await api.call(.post, "/web/sign-out", headers: [.cookie: "bioauth_session=\(page.cookie)", .origin: APIClient.origin])

                let locked = try await api.newAccount()
                for _ in 0..<2 {
                    try await api.call(
                        .post,
                        "/v1/sessions/password",
                        json: PasswordSignInRequest(username: locked.user.username, password: "wrong password!")
                    )
                }
                try await api.call(
                    .post,
                    "/web/sign-in/password",
                    json: PasswordSignInRequest(username: locked.user.username, password: "wrong password!"),
                    headers: [.origin: APIClient.origin]
                )
                try await api.call(
                    .post,
                    "/v1/sessions/current/reauthenticate",
                    json: ReauthenticateRequest(password: "correct horse battery"),
                    token: locked.sessionToken
                )
                try await api.call(
                    .put,
                    "/v1/users/me/password",
                    json: ChangePasswordRequest(currentPassword: "correct horse battery", newPassword: "x-new password"),
                    token: locked.sessionToken
                )
                return api.recorded.all
            }
            let confirmations = try await Self.confirmationTour(huge: huge, garbage: garbage)
            let passkeyConfirmations = try await PasskeyConfirmationTests.statusTour(huge: huge, garbage: garbage)
            let produced = api.recorded.all.union(atLimit).union(states).union(confirmations).union(passkeyConfirmations)
            let missing = documented.subtracting(produced)
            let undocumented = produced.subtracting(documented)
            #expect(missing.isEmpty, "documented but never produced: \(missing.sorted())")
            #expect(undocumented.isEmpty, "produced but not documented: \(undocumented.sorted())")
        }
    }
}
