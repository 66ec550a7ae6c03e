import BioAuthProtocol
import Foundation

/// A device key's answer to an authentication challenge, read and parsed, not yet verified or
/// consumed. The same answer serves a biometric sign-in, a PIN sign-in (with a PIN key) and a
/// re-authentication; which one a challenge may complete is decided by its registration's kind.
/// ``DeviceKeyProof`` hands it to the account core.
package struct KeyAssertion: Sendable {
    var challenge: AuthenticationChallenge
    var registrationID: String
    var userID: String
    var key: DevicePublicKey
    var signature: DeviceSignature
    var message: Data
    /// Whether a sign-in with this key may step up (``StepUp``): its evidence verified, or the
    /// operator lets keys without verified evidence step up.
    var stepsUp: Bool

    /// Whether the device key signed this challenge's message.
    var signatureIsValid: Bool { key.isValidSignature(signature, for: message) }
}

/// What a device key's signature over an authentication challenge covers.
enum SignedStatement: Sendable, Equatable {
    /// A sign-in or re-authentication: ``SignedMessage`` with ``Ceremony/authentication``.
    case authentication
    /// A confirmation's approval: ``ConfirmationMessage`` with the stored details' hash.
    case confirmation(detailsHash: Data)
}

/// Reads device keys' answers to authentication challenges: what every sign-in,
/// re-authentication and confirmation by a device key (biometric or PIN) needs to check one.
struct KeyAssertionReader: Sendable {
    let database: any DatabaseProvider
    /// The keys authentication challenges are made under.
    let challengeKeys: PINKeyRing
    /// The keys of registrations that answered challenges before.
    let signingKeys: SigningKeyCache
    let relyingPartyID: String
    /// Keys without verified hardware evidence do not step up
    /// (``ServerConfiguration/stepUpNeedsVerifiedKey``).
    let stepUpNeedsVerifiedKey: Bool

    /// Verifies challenge id `challengeID` under ``challengeKeys``, finds its registration's key
    /// (remembered in ``signingKeys``, or read and then remembered), which must be of `kind` (and
    /// belong to `userID` when given), and parses the signature. It only reads: a malformed
    /// signature is bad input and changes nothing; a forged, altered or foreign challenge is
    /// `challenge_invalid`. Whether it expired or was spent, or its registration revoked, the
    /// completion decides. The message the signature must cover is `statement`'s.
    func read(
        challengeID: String,
        signature: Base64URLBytes,
        kind: RegistrationKind,
        userID: String? = nil,
        signing statement: SignedStatement = .authentication
    ) async throws -> KeyAssertion {
        guard let challenge = AuthenticationChallenge.verify(id: challengeID, keys: challengeKeys),
            let owner = try await signingKey(registrationID: challenge.registrationID, kind: kind),
            userID == nil || userID == owner.userID
        else {
            throw SignatureRules.unknownChallenge
        }
        return KeyAssertion(
            challenge: challenge,
            registrationID: challenge.registrationID,
            userID: owner.userID,
            key: owner.key,
            signature: try SignatureRules.parse(signature, for: owner.key.algorithm),
            message: try message(statement, challenge: challenge),
            stepsUp: owner.verified || !stepUpNeedsVerifiedKey
        )
    }

    /// The bytes the device signed for `statement` over `challenge`.
    private func message(_ statement: SignedStatement, challenge: AuthenticationChallenge) throws -> Data {
        switch statement {
        case .authentication:
            try SignatureRules.message(
                .authentication,
                relyingPartyID: relyingPartyID,
                registrationID: challenge.registrationID,
                challenge: challenge.bytes
            )
        case .confirmation(let detailsHash):
            try SignatureRules.confirmationMessage(
                relyingPartyID: relyingPartyID,
                registrationID: challenge.registrationID,
                challenge: challenge.bytes,
                detailsHash: detailsHash
            )
        }
    }

    /// Registration `registrationID`'s owner, key and verdict if it is of `kind`: remembered, or
    /// read and remembered.
    private func signingKey(registrationID: String, kind: RegistrationKind) async throws -> SigningKeyCache.Entry? {
        if let entry = signingKeys.entry(for: registrationID) {
            return entry.kind == kind ? entry : nil
        }
        guard let owner = try await database.read({ db in try await RegistrationTable.signingKey(db, id: registrationID, kind: kind) })
        else { return nil }
        let entry = SigningKeyCache.Entry(userID: owner.userID, kind: kind, key: owner.key, verified: owner.verified)
        signingKeys.remember(entry, for: registrationID)
        return entry
    }
}
