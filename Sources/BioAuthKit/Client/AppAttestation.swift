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
/// - A key attests once (Apple: `attestKey` on a key already attested fails with `invalidKey`),
///   then asserts. Apple asks to keep new keys per device few (its risk metric counts them), so a
///   key is kept from its generation until a server refuses it: an attested key asserts next
///   time even if its registration was canceled, and a server that never verified it answers
///   `key_mismatch`, after which a fresh key attests.
/// - `serverUnavailable` ("retry attestation again using the same key and client data hash later
///   to avoid unnecessarily generating new keys", DCAppAttestService.h, iOS 16.5 SDK) is retried
///   within the registration with the same key and hash, ``unavailableRetryDelays``. Across registrations the
///   same hash cannot come back: it binds a new device key and a single-use challenge. After the
///   retries the key registers without evidence and the unattested App Attest key attests the
///   next time, over that registration's hash.
/// - Any other failure (`invalidKey`, `unknownSystemFailure`, `invalidInput`) discards the key,
///   and a fresh one is tried once per registration; so does a server's refusal of its
///   attestation (``settle(_:verdict:reason:userID:)``).
/// - The key id lives in the keychain (``PlainRecords``, `ThisDeviceOnly`, never moving to
///   another device), one per user, since Apple asks for a key per user of the device. App
///   Attest keys themselves do not survive a reinstall, a migration or a restore (Apple,
///   "Establishing your app's integrity") while the keychain record may: the kept id then fails
///   with `invalidKey`, and a fresh key attests. It is no secret: the key stays in the Secure
///   Enclave and only this app can use it.
/// - Evidence is only ever added: when none can be made (unsupported, switched off, Apple's
///   server unreachable, a second failure) the key registers without it, and the server's policy
///   (`--key-attestation`) alone decides whether that is enough.
struct AppAttestation: Sendable {
    let backend: (any AppAttestBackend)?
    let records: PlainRecords
    /// ``BioAuthConfiguration/appAttest``.
    let enabled: Bool

    /// An App Attest key this device keeps for a user.
    struct KeyRecord: Codable, Sendable, Equatable {
        /// `generateKey`'s id (standard base64 of 32 bytes).
        var keyID: String
        /// Whether a server verified the key's attestation.
        var verified: Bool
        /// Whether `attestKey` succeeded for it (`nil` in records kept before this was recorded).
        var attested: Bool?

        /// Whether the key asserts (it attested) rather than attests.
        var asserts: Bool { verified || attested == true }
    }

    /// The waits before each retry of a call that answered `serverUnavailable`, in nanoseconds.
    static let unavailableRetryDelays: [UInt64] = [300_000_000, 1_000_000_000]

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
                if let kept, kept.asserts {
                    let assertion = try await Self.retryingUnavailable { () throws(KeychainStatus) in
                        try await backend.generateAssertion(kept.keyID, clientDataHash: clientDataHash)
                    }
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
                let attestation = try await Self.retryingUnavailable { () throws(KeychainStatus) in
                    try await backend.attestKey(keyID, clientDataHash: clientDataHash)
                }
                // Attested keys cannot attest again: it asserts from now on, until a server refuses it.
                try? records.save(KeyRecord(keyID: keyID, verified: false, attested: true), Self.account(userID))
                return prepared(keyID: keyID, challenge: challenge, attestation: attestation, assertion: nil, userID: userID)
            } catch {
                switch StatusMapping.appAttestFailure(for: error) {
                case .invalidKey, .failed:
                    forget(userID)
                    guard !startedOver else { return nil }
                    startedOver = true
                case .unavailable, .unsupported:
                    return nil
                }
            }
        }
    }

    /// An assertion by the App Attest key `keyID` over SHA-256 of `message` (a confirmation's
    /// message bytes), for a device key registered with that key's evidence; `nil` when none can
    /// be made (switched off, App Attest not offered here, or the key unusable, as after a
    /// reinstall): the approval then goes without one, and the server's policy decides.
    func assertion(keyID: String, over message: Data) async -> Data? {
        guard isAvailable, let backend else { return nil }
        let clientDataHash = Data(SHA256.hash(data: message))
        return try? await Self.retryingUnavailable { () throws(KeychainStatus) in
            try await backend.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }

    /// `call`, tried again with the same inputs after each ``unavailableRetryDelays`` while it
    /// answers `serverUnavailable`.
    private static func retryingUnavailable<T>(_ call: () async throws(KeychainStatus) -> T) async throws(KeychainStatus) -> T {
        for delay in unavailableRetryDelays {
            do {
                return try await call()
            } catch  where StatusMapping.appAttestFailure(for: error) == .unavailable {
                try? await Task.sleep(nanoseconds: delay)
            }
        }
        return try await call()
    }

    /// Records what the server made of `prepared` (the registration's `attestation` verdict and
    /// reason, or a `403 attestation_refused`): an attestation it verified marks the key verified;
    /// an attestation it refused discards the key ("If your server fails to verify the
    /// attestation object, discard the key identifier", DCAppAttestService.h); an assertion it
    /// refused for the key's sake (``keyRefusals``) discards it too. A refusal for the app's or
    /// the device's sake keeps an asserting key: a fresh one would be refused alike.
    func settle(_ prepared: Prepared, verdict: KeyAttestationResult.Verdict, reason: String?, userID: String) {
        switch verdict {
        case .verified where !prepared.isAssertion:
            try? records.save(KeyRecord(keyID: prepared.keyID, verified: true, attested: true), Self.account(userID))
        case .refused where !prepared.isAssertion || Self.keyRefusals.contains(reason ?? ""):
            forget(userID)
        default:
            break
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
