import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

/// Opens a passkey request ceremony of any kind (a sign-in, a re-authentication, a confirmation's
/// approval): in one transaction, the credentials it allows are listed and its challenge stored as
/// a `webauthn_challenges` row of its kind, which only a completion of that kind spends; then the
/// options the browser gets.
struct PasskeyRequestCeremony: Sendable {
    let database: any DatabaseProvider
    let relyingParty: RelyingParty
    let time: TimeSource
    let challengeTTL: Duration

    /// Stores a new ceremony of `kind` with `challenge` for the user `listing` names, with the
    /// credentials it lists (it may refuse by throwing), bound to `sessionID` when given.
    func open(
        _ kind: Ceremony,
        challenge: Data = SecureRandom.bytes(ProtocolLimits.challengeByteCount),
        listing: @escaping @Sendable (any StatementDatabase) async throws -> (userID: String?, allowed: [PublicKeyCredentialDescriptorJSON]),
        usernameFirst: Bool,
        sessionID: String?
    ) async throws -> PasskeyCeremonyResponse<PublicKeyCredentialRequestOptionsJSON> {
        let now = time.now()
        let ceremonyID = SecureRandom.identifier(.webAuthnCeremony)
        let expiresAt = now.addingTimeInterval(challengeTTL.timeInterval)
        let allowed = try await database.transaction { db in
            let (userID, allowed) = try await listing(db)
            try await WebAuthnChallengeTable.insert(
                db,
                id: ceremonyID,
                ceremony: kind,
                userID: userID,
                sessionID: sessionID,
                usernameFirst: usernameFirst,
                challenge: challenge,
                now: now,
                expiresAt: expiresAt
            )
            return allowed
        }
        return PasskeyCeremonyResponse(
            ceremonyID: ceremonyID,
            publicKey: relyingParty.requestOptions(challenge: Array(challenge), allowing: allowed, timeout: challengeTTL)
        )
    }
}
