import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer
@testable import BioAuthWebAuthn

/// The passkey ceremonies as a browser performs them, over the contract-checking client, with a
/// ``SoftwareAuthenticator`` answering (the loopback server's origin is `https://bank.example`).
extension APIClient {
    /// The origin the loopback server's relying party accepts.
    static let origin = "https://\(LoopbackServer.relyingPartyID)"

    /// Opens a registration ceremony.
    func passkeyRegistrationOptions(token: String) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialCreationOptionsJSON> {
        try await expect(
            .created,
            PasskeyCeremonyResponse<PublicKeyCredentialCreationOptionsJSON>.self,
            .post,
            Endpoint.createPasskeyRegistrationOptions.path(),
            token: token
        )
    }

    /// Adds a passkey made by `authenticator` to the session's account.
    @discardableResult
    func addPasskey(_ authenticator: SoftwareAuthenticator, token: String, label: String = "laptop") async throws -> Passkey {
        let ceremony = try await passkeyRegistrationOptions(token: token)
        let credential = try authenticator.register(ceremony.publicKey)
        return try await expect(
            .created,
            PasskeyResponse.self,
            .post,
            Endpoint.registerPasskey.path(),
            json: RegisterPasskeyRequest(ceremonyID: ceremony.ceremonyID, credential: credential, label: label),
            token: token
        ).passkey
    }

    /// Opens an authentication ceremony (username-first when `username` is given).
    func passkeyAuthenticationOptions(username: String? = nil) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        try await expect(
            .created,
            PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON>.self,
            .post,
            Endpoint.createPasskeyAuthenticationOptions.path(),
            json: PasskeyAuthenticationOptionsRequest(username: username)
        )
    }

    /// A passkey sign-in's answer (success or not) for `authenticator`'s newest credential.
    @discardableResult
    func passkeySignIn(_ authenticator: SoftwareAuthenticator, username: String? = nil) async throws -> APIResponse {
        let ceremony = try await passkeyAuthenticationOptions(username: username)
        return try await call(
            .post,
            Endpoint.signInWithPasskey.path(),
            json: PasskeySignInRequest(ceremonyID: ceremony.ceremonyID, credential: try authenticator.authenticate(ceremony.publicKey))
        )
    }

    /// A new account (signed in with the password) with one passkey.
    func newAccountWithPasskey() async throws -> (account: SignInResponse, authenticator: SoftwareAuthenticator, passkey: Passkey) {
        let account = try await newAccount()
        let authenticator = SoftwareAuthenticator(origin: Self.origin)
        return (account, authenticator, try await addPasskey(authenticator, token: account.sessionToken))
    }
}
