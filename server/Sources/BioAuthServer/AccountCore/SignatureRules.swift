import BioAuthProtocol
import Foundation

/// The checks every signed answer goes through before the database is asked anything.
enum SignatureRules {
    /// The answer to every unknown, expired, spent or foreign challenge alike.
    static var unknownChallenge: Rejection {
        Rejection(.challengeInvalid, "The challenge is unknown, expired, already used or not for this ceremony.")
    }

    /// Parses a signature strictly for `algorithm`; a malformed one is `400 invalid_signature_encoding`.
    static func parse(_ signature: Base64URLBytes, for algorithm: SignatureAlgorithm) throws -> DeviceSignature {
        do {
            return try DeviceSignature(algorithm: algorithm, bytes: signature.data)
        } catch {
            throw Rejection(.invalidSignatureEncoding, "signature is not a well-formed \(algorithm.rawValue) signature: \(error.reason).")
        }
    }

    /// The exact bytes the device signed.
    static func message(_ ceremony: Ceremony, relyingPartyID: String, registrationID: String, challenge: Data) throws -> Data {
        do {
            return try SignedMessage(ceremony: ceremony, relyingPartyID: relyingPartyID, registrationID: registrationID, challenge: challenge)
                .encoded()
        } catch {
            throw Rejection(.challengeInvalid, "The challenge cannot be answered.")
        }
    }

    /// The exact bytes a device signed to approve a confirmation whose details hash to `detailsHash`.
    static func confirmationMessage(relyingPartyID: String, registrationID: String, challenge: Data, detailsHash: Data) throws -> Data {
        do {
            return try ConfirmationMessage(
                relyingPartyID: relyingPartyID,
                registrationID: registrationID,
                challenge: challenge,
                detailsHash: detailsHash
            )
            .encoded()
        } catch {
            throw Rejection(.challengeInvalid, "The challenge cannot be answered.")
        }
    }

    /// The answer to a well-formed signature that does not verify.
    static var invalid: Rejection {
        Rejection(.signatureInvalid, "The signature does not verify with the registered key.")
    }
}
