import BioAuthProtocol
import BioAuthWebAuthn
import Crypto
import Foundation
import SQLKit

/// Signing in with a passkey: request options (username-first or discoverable), then the
/// authentication procedure against the stored credential, in one transaction with the
/// challenge's consumption, the counter's update and the session.
struct PasskeySignInService: Sendable {
    let database: any DatabaseProvider
    let relyingParty: RelyingParty
    let sessions: SessionService
    let time: TimeSource
    let challengeTTL: Duration
    /// Keys the decoy credential ids a username-first sign-in shows for a username with no passkeys.
    let decoyKey: PINKeyRing.Key

    /// Request options. With a username, `allowCredentials` lists that account's passkeys;
    /// for an unknown username, or one without passkeys, it lists one decoy id derived from the
    /// username under a server key, so that the answer does not tell which usernames exist.
    /// Without one, `allowCredentials` is empty: a discoverable sign-in (or autofill).
    func options(_ request: PasskeyAuthenticationOptionsRequest) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let now = time.now()
        let ceremonyID = SecureRandom.identifier(.webAuthnCeremony)
        let challenge = SecureRandom.bytes(ProtocolLimits.challengeByteCount)
        let username = try request.username.map { name in
            guard let username = CredentialRules.username(name) else { throw CredentialRules.invalidUsername }
            return username
        }
        let allowed = try await database.transaction { db -> [PublicKeyCredentialDescriptorJSON] in
            var userID: String?
            var allowed: [PublicKeyCredentialDescriptorJSON] = []
            if let username {
                userID = try await UserTable.id(db, usernameKey: username.key)
                if let userID {
                    allowed = try await PasskeyTable.all(db, userID: userID).map(\.descriptor)
                }
                if allowed.isEmpty {
                    let decoy = HMAC<SHA256>.authenticationCode(for: Array("passkey decoy:\(username.key)".utf8), using: decoyKey.secret)
                    allowed = [PublicKeyCredentialDescriptorJSON(id: Base64URLBytes(Array(decoy).prefix(16)), transports: ["internal", "hybrid"])]
                }
            }
            try await WebAuthnChallengeTable.insert(db, id: ceremonyID, ceremony: .authentication, userID: userID, sessionID: nil,
                                                    challenge: challenge, now: now, expiresAt: now.addingTimeInterval(challengeTTL.timeInterval))
            return allowed
        }
        return PasskeyCeremonyResponse(ceremonyID: ceremonyID,
                                       publicKey: relyingParty.requestOptions(challenge: Array(challenge), allowing: allowed, timeout: challengeTTL))
    }

    /// Signs in with a passkey's answer to ceremony `request.ceremonyID`.
    ///
    /// The passkey is looked up by its credential id; a username-first ceremony must be
    /// answered by one of that user's passkeys. The response is verified against the challenge
    /// as read; then one transaction consumes the challenge (whatever the verdict), and for a
    /// valid answer moves the counter on (only from the value it was verified against, so of two
    /// racing assertions one wins) and creates the session.
    func signIn(_ request: PasskeySignInRequest) async throws -> SignInResponse {
        let minutes = try sessions.duration(requested: request.sessionDurationMinutes)
        let credentialID = Array(request.credential.rawId.data)
        let (ceremony, passkey) = try await database.read { db in
            (try await WebAuthnChallengeTable.read(db, id: request.ceremonyID, ceremony: .authentication),
             try await PasskeyTable.find(db, credentialID: credentialID))
        }
        guard let ceremony else { throw Rejection(.challengeInvalid, "No passkey sign-in ceremony with that id is open; start again.") }
        let verdict: Result<VerifiedAuthentication, WebAuthnError>
        if let passkey {
            if let expected = ceremony.userID, expected != passkey.userID {
                verdict = .failure(WebAuthnError(.credentialNotAllowed, "the passkey is not the named user's"))
            } else {
                let record = CredentialRecord(credentialID: passkey.credentialID, userHandle: PasskeyService.userHandle(passkey.userID),
                                              publicKey: passkey.publicKey, signCount: passkey.signCount, backupEligible: passkey.backupEligible)
                do {
                    verdict = .success(try relyingParty.verifyAuthentication(request.credential, challenge: ceremony.challenge, credential: record,
                                                                             userIdentified: ceremony.userID != nil))
                } catch {
                    verdict = .failure(error)
                }
            }
        } else {
            verdict = .failure(WebAuthnError(.credentialNotAllowed, "unknown credential"))
        }

        enum Outcome: Sendable { case signedIn(SignInResponse), spent, unknown, refused(WebAuthnError), raced }
        let now = time.now()
        let outcome = try await database.transaction { db -> Outcome in
            guard try await WebAuthnChallengeTable.consume(db, id: request.ceremonyID, ceremony: .authentication, now: now) else { return .spent }
            guard let passkey else { return .unknown }
            let verified: VerifiedAuthentication
            switch verdict {
            case .failure(let error):
                // Whoever sent it has not shown they hold the passkey: counted, not one row each.
                try await AuditLog.count(db, .user(passkey.userID), type: .passkeySignIn, outcome: .failure, at: now, passkeyID: passkey.id)
                if error.reason == .signCountRegressed {
                    // The signature held: the passkey's key signed, yet its counter went back.
                    try await AuditLog.record(db, userID: passkey.userID, type: .passkeyCloneSuspected, outcome: .failure, at: now, passkeyID: passkey.id)
                }
                return .refused(error)
            case .success(let result): verified = result
            }
            guard try await PasskeyTable.markUsed(db, id: passkey.id, expectedSignCount: passkey.signCount, signCount: verified.signCount,
                                                  backedUp: verified.backedUp, now: now),
                  let user = try await UserTable.user(db, id: passkey.userID)
            else { return .raced }
            let issued = try await SessionService.insert(db, userID: passkey.userID, authentication: .init(method: .passkey, passkeyID: passkey.id),
                                                         minutes: minutes, now: now)
            try await AuditLog.record(db, userID: passkey.userID, type: .passkeySignIn, outcome: .success, at: now, passkeyID: passkey.id,
                                      sessionID: issued.session.id)
            return .signedIn(SignInResponse(sessionToken: issued.token.text, session: issued.session, user: user))
        }
        switch outcome {
        case .signedIn(let response): return response
        case .spent: throw Rejection(.challengeInvalid, "The sign-in ceremony has expired or was already used; start again.")
        case .unknown: throw Rejection(.passkeyUnknown, "This passkey is not registered here (or was removed).")
        case .refused(let error): throw Rejection(error)
        case .raced: throw Rejection(.passkeyInvalid, "The passkey was removed, or used by another sign-in at the same moment; try again.")
        }
    }
}
