import BioAuthProtocol
import Foundation

/// A passkey ceremony that approves one confirmation on the account page: its WebAuthn challenge
/// is the confirmation's message (``ConfirmationMessage``: the relying party, an empty
/// registration id, fresh random bytes and the stored details' hash), so that the authenticator's
/// signature over `clientDataJSON` covers exactly those details, as W3C Secure Payment
/// Confirmation binds its payment data. The ceremony's row (``Ceremony/confirmation``) serves no
/// sign-in or re-authentication, and theirs serve no confirmation.
enum ConfirmationCeremony {
    /// The challenge of a new ceremony for the confirmation whose details hash to `detailsHash`.
    static func challenge(relyingPartyID: String, detailsHash: Data) throws -> Data {
        try message(relyingPartyID: relyingPartyID, random: SecureRandom.bytes(ProtocolLimits.challengeByteCount), detailsHash: detailsHash)
    }

    /// Whether a stored ceremony's `challenge` is the message for the confirmation whose details
    /// hash to `detailsHash`: rebuilt from the challenge's own random bytes (the ones before the
    /// hash's field), byte for byte.
    static func binds(_ challenge: [UInt8], relyingPartyID: String, detailsHash: Data) -> Bool {
        let hashField = 2 + detailsHash.count
        guard challenge.count > hashField + ProtocolLimits.challengeByteCount else { return false }
        let random = Data(challenge.dropLast(hashField).suffix(ProtocolLimits.challengeByteCount))
        guard let expected = try? message(relyingPartyID: relyingPartyID, random: random, detailsHash: detailsHash) else { return false }
        return Array(expected) == challenge
    }

    private static func message(relyingPartyID: String, random: Data, detailsHash: Data) throws -> Data {
        try ConfirmationMessage(relyingPartyID: relyingPartyID, registrationID: "", challenge: random, detailsHash: detailsHash).encoded()
    }
}
