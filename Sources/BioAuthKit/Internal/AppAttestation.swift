import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// App Attest evidence for a new device key (docs/PROTOCOL.md §4.1, "Hardware evidence"): which
/// App Attest key vouches for it, whether that key attests or asserts, and what is kept of it.
///
/// - The client data is ``KeyAttestationMessage`` for the public key exactly as the start request
///   sends it; `clientDataHash` is its SHA-256.
/// - An App Attest key a server has verified asserts; any other attests, once (Apple: `attestKey`
///   on a key already attested fails with `invalidKey`). A key that attested is therefore kept
///   only once the server reports its attestation `verified`; a key that was generated and not
///   yet attested (Apple's server was unreachable) is kept to attest the next time, as Apple
///   advises.
/// - The key id lives in the keychain (``PlainRecords``, `ThisDeviceOnly`: it survives a
///   reinstall, as App Attest keys do, and never moves to another device), one per user, since
///   Apple asks for a key per user of the device. It is no secret: the key itself stays in the
///   Secure Enclave and only this app can use it.
/// - Evidence is only ever added: when none can be made (unsupported, switched off, Apple's
///   server unreachable, a second `invalidKey`) the key registers without it, and the server's
///   policy (`--key-attestation`) alone decides whether that is enough.
struct AppAttestation: Sendable {
    let backend: (any AppAttestBackend)?
    let records: PlainRecords
    /// ``BioAuthConfiguration/appAttest``.
    let enabled: Bool

    /// An App Attest key this device keeps for a user.
    struct KeyRecord: Codable, Sendable, Equatable {
        /// `generateKey`'s id (standard base64 of 32 bytes).
        var keyID: String
        /// Whether a server verified the key's attestation (it then asserts); otherwise it was
        /// generated and not attested yet.
        var verified: Bool
    }

    /// Evidence made for one device key.
    struct Prepared: Sendable {
        /// What the start request carries.
        var evidence: KeyAttestationEvidence
        /// The App Attest key that made it.
        var keyID: String
        /// An assertion (the key was verified before), not an attestation.
        var isAssertion: Bool
    }

    /// Refusal reasons (`attestation_refused`'s `reason`) that condemn the App Attest key itself
    /// rather than the app or the device: the server does not know the key (`key_mismatch`), or
    /// its assertion does not verify (`assertion_invalid`). A fresh key, attested, may pass.
    static let keyRefusals: Set<String> = ["key_mismatch", "assertion_invalid"]

    /// Whether evidence should be attempted: switched on, and App Attest offered on this device.
    var isAvailable: Bool { enabled && backend?.isSupported == true }

    static func account(_ userID: String) -> String { "app-attest-key." + userID }

    /// The App Attest key kept for `userID`.
    func record(for userID: String) -> KeyRecord? {
        records.load(KeyRecord.self, Self.account(userID))
    }

    /// Forgets the App Attest key kept for `userID`; the next registration attests a new one.
    func forget(_ userID: String) {
        records.delete(Self.account(userID))
    }

    /// Evidence for the device key `publicKey` (the bytes the start request sends) made against
    /// the attestation `challenge`, or `nil` when none can be made.
    func evidence(publicKey: Data, challenge: Data, relyingPartyID: String, userID: String) async -> Prepared? {
        guard isAvailable, let backend else { return nil }
        guard let message = try? KeyAttestationMessage(relyingPartyID: relyingPartyID, publicKey: publicKey, challenge: challenge).encoded()
        else { return nil }
        let clientDataHash = Data(SHA256.hash(data: message))
        var startedOver = false
        while true {
            let kept = record(for: userID)
            do throws(KeychainStatus) {
                if let kept, kept.verified {
                    let assertion = try await backend.generateAssertion(kept.keyID, clientDataHash: clientDataHash)
                    return prepared(keyID: kept.keyID, challenge: challenge, attestation: nil, assertion: assertion, userID: userID)
                }
                let keyID: String
                if let kept {
                    keyID = kept.keyID
                } else {
                    keyID = try await backend.generateKey()
                    // Kept before attesting: if Apple's server is unreachable, the same key attests next time.
                    try? records.save(KeyRecord(keyID: keyID, verified: false), Self.account(userID))
                }
                let attestation = try await backend.attestKey(keyID, clientDataHash: clientDataHash)
                // Attested keys cannot attest again: kept only once a server verifies this one (``settle``).
                forget(userID)
                return prepared(keyID: keyID, challenge: challenge, attestation: attestation, assertion: nil, userID: userID)
            } catch {
                switch StatusMapping.appAttestFailure(for: error) {
                case .invalidKey:
                    forget(userID)
                    guard !startedOver else { return nil }
                    startedOver = true
                case .unavailable, .unsupported, .failed:
                    return nil
                }
            }
        }
    }

    /// Records what the server made of `prepared` (`result`, the registration's `attestation`):
    /// an attestation it verified makes the key one that asserts from now on; an assertion it
    /// refused for the key's sake makes the next registration attest a new key.
    func settle(_ prepared: Prepared, result: KeyAttestationResult?, userID: String) {
        guard let result else { return }
        if !prepared.isAssertion, result.verdict == .verified {
            try? records.save(KeyRecord(keyID: prepared.keyID, verified: true), Self.account(userID))
        } else if prepared.isAssertion, result.verdict == .refused, let reason = result.reason, Self.keyRefusals.contains(reason) {
            forget(userID)
        }
    }

    private func prepared(keyID: String, challenge: Data, attestation: Data?, assertion: Data?, userID: String) -> Prepared? {
        // The wire carries the raw 32 bytes; generateKey's id is their standard base64.
        guard let rawKeyID = Data(base64Encoded: keyID) else {
            forget(userID)
            return nil
        }
        return Prepared(
            evidence: .appleAppAttest(challenge: challenge, keyID: rawKeyID, attestation: attestation, assertion: assertion),
            keyID: keyID,
            isAssertion: assertion != nil
        )
    }
}
