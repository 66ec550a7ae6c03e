import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Signing in, and re-authenticating, with a passkey: request options (username-first,
/// discoverable, or the caller's own passkeys for a re-authentication), then the authentication
/// procedure against the stored credential (``RelyingParty``), then the account core, which
/// spends the ceremony, moves the counter on and creates (or renews) the session.
struct PasskeySignInService: Sendable {
    let database: any DatabaseProvider
    let relyingParty: RelyingParty
    let core: AccountCore
    let challengeTTL: Duration
    /// Keys the decoy credentials a username-first sign-in lists for a username with no passkeys.
    let decoyKey: PINKeyRing.Key

    /// Request options. With a username, `allowCredentials` lists that account's passkeys; for a
    /// username with no account or no passkeys, a decoy list (``PasskeyDecoy``), and the ceremony
    /// remembers it was username-first, so that no passkey answers it: the answer and the sign-in's
    /// failure are those of an account whose passkey the caller does not hold. Without a username,
    /// `allowCredentials` is empty: a discoverable sign-in (or autofill).
    func options(_ request: PasskeyAuthenticationOptionsRequest) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let username = try request.username.map { name in
            guard let username = CredentialRules.username(name) else { throw CredentialRules.invalidUsername }
            return username
        }
        let decoyKey = self.decoyKey
        return try await open(
            listing: { db in
                guard let username else { return (nil, []) }
                let userID = try await UserTable.id(db, usernameKey: username.key)
                var allowed: [PublicKeyCredentialDescriptorJSON] = []
                if let userID { allowed = try await PasskeyTable.all(db, userID: userID).map(\.descriptor) }
                return (userID, allowed.isEmpty ? PasskeyDecoy.descriptors(for: username.key, key: decoyKey) : allowed)
            },
            usernameFirst: username != nil,
            sessionID: nil
        )
    }

    /// Request options for re-authenticating the caller with one of their passkeys: bound to their
    /// session, listing their passkeys; `404 not_found` when they have none.
    func reauthenticationOptions(for caller: Caller) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        try await open(
            listing: { db in
                let allowed = try await PasskeyTable.all(db, userID: caller.userID).map(\.descriptor)
                guard !allowed.isEmpty else { throw Rejection(.notFound, "This account has no passkey; re-authenticate with the password.") }
                return (caller.userID, allowed)
            },
            usernameFirst: true,
            sessionID: caller.sessionID
        )
    }

    /// Stores a new authentication ceremony for the user `listing` names, with the credentials it lists.
    private func open(
        listing: @escaping @Sendable (any StatementDatabase) async throws -> (userID: String?, allowed: [PublicKeyCredentialDescriptorJSON]),
        usernameFirst: Bool,
        sessionID: String?
    ) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let ceremony = PasskeyRequestCeremony(database: database, relyingParty: relyingParty, time: core.time, challengeTTL: challengeTTL)
        return try await ceremony.open(.authentication, listing: listing, usernameFirst: usernameFirst, sessionID: sessionID)
    }

    /// Signs in with a passkey's answer to ceremony `request.ceremonyID`.
    func signIn(_ request: PasskeySignInRequest) async throws -> SignInResponse {
        let minutes = try core.sessions.minutes(requested: request.sessionDurationMinutes)
        let proof = try await verify(ceremonyID: request.ceremonyID, credential: request.credential, for: nil)
        return try await core.complete(proof, for: .signIn(minutes: minutes)).signInResponse
    }

    /// Checks a passkey's answer to a ceremony: a sign-in's (`caller` `nil`) or the caller's
    /// re-authentication's. The passkey is looked up by its credential id, with its owner's
    /// credential epoch; a username-first ceremony must be answered by the named user's passkey.
    /// Only reads: the account core spends the ceremony, whatever the verdict.
    func verify(ceremonyID: String, credential: AuthenticationResponseJSON, for caller: Caller?) async throws -> PasskeyProof {
        let credentialID = Array(credential.rawId.data)
        let (ceremony, passkey, epoch) = try await database.read { db in
            try await PasskeyAssertionCheck.read(db, ceremonyID: ceremonyID, kind: .authentication, credentialID: credentialID)
        }
        // A sign-in ceremony signs in; a re-authentication's renews only the session that opened it.
        guard let ceremony, ceremony.sessionID == caller?.sessionID else {
            throw Rejection(.challengeInvalid, "No passkey ceremony with that id is open for this; start again.")
        }
        let verdict = PasskeyAssertionCheck.verdict(on: credential, answering: ceremony, passkey: passkey, relyingParty: relyingParty)
        return PasskeyProof(passkey: passkey, ceremonyID: ceremonyID, epoch: epoch ?? 0, verdict: verdict)
    }
}
