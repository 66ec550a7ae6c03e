import BioAuthProtocol
import Foundation
import SQLKit

/// A device key's answer to an authentication challenge, read and parsed, not yet verified or
/// consumed. The same answer serves a biometric sign-in, a PIN sign-in (with a PIN key) and a
/// re-authentication; which one a challenge may complete is decided by its registration's kind.
package struct KeyAssertion: Sendable {
    var challengeID: String
    var registrationID: String
    var userID: String
    var key: DevicePublicKey
    var signature: DeviceSignature
    var message: Data

    /// Whether the device key signed this challenge's message.
    var signatureIsValid: Bool { key.isValidSignature(signature, for: message) }

    /// Reads challenge `challengeID` with its registration, which must be of `kind` (and belong to
    /// `userID` when given), and parses the signature. It only reads: a malformed signature is bad
    /// input and changes nothing; an unknown or foreign challenge is `challenge_invalid`.
    static func read(
        _ database: any DatabaseProvider, challengeID: String, signature: Base64URLBytes, kind: RegistrationKind,
        userID: String? = nil, relyingPartyID: String
    ) async throws -> KeyAssertion {
        guard let stored = try await database.withDatabase({ db in try await ChallengeTable.authentication(db, id: challengeID, kind: kind) }),
              userID == nil || userID == stored.userID
        else {
            throw SignatureRules.unknownChallenge
        }
        return KeyAssertion(
            challengeID: challengeID, registrationID: stored.registrationID, userID: stored.userID, key: stored.key,
            signature: try SignatureRules.parse(signature, for: stored.key.algorithm),
            message: try SignatureRules.message(.authentication, relyingPartyID: relyingPartyID, registrationID: stored.registrationID,
                                                challenge: stored.challenge))
    }

    /// Consumes the challenge inside the caller's transaction; `false` when it was already spent
    /// or expired. Call it whatever the signature's verdict: a bad signature spends it too.
    func consume(_ db: any SQLDatabase, now: Date) async throws -> Bool {
        try await ChallengeTable.consume(db, id: challengeID, ceremony: .authentication, now: now) != nil
    }

    /// Marks the registration used by a verified answer; `false` when it was revoked meanwhile.
    func markUsed(_ db: any SQLDatabase, now: Date) async throws -> Bool {
        try await RegistrationTable.markUsed(db, id: registrationID, now: now)
    }
}
