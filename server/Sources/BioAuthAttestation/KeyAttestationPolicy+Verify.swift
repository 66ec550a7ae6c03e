import BioAuthProtocol
import Crypto
import Foundation
import X509

/// An App Attest key seen for the first time, or a known one's counter moving: the state a server
/// keeps when App Attest evidence verified.
package enum AppAttestKeyChange: Sendable {
    /// A new key, attested.
    case attested(AppAttestKey)
    /// A known key's assertion: the key with its new counter, and the counter it had.
    case asserted(AppAttestKey, previous: UInt32)
}

/// The verdict on a device key's evidence that verified: what a registration records, and the App
/// Attest state to keep.
package struct KeyAttestationVerdict: Sendable {
    /// What the registration records.
    package var result: KeyAttestationResult
    /// The App Attest key to keep or move on, for App Attest evidence.
    package var appAttest: AppAttestKeyChange?

    /// A verdict from its parts.
    package init(result: KeyAttestationResult, appAttest: AppAttestKeyChange? = nil) {
        self.result = result
        self.appAttest = appAttest
    }
}

/// The one entry point of BioAuthAttestation (as swift-certificates' `Verifier` is): the evidence
/// in, a verdict or a refusal out, under the operator's policy.
extension KeyAttestationPolicy {
    /// Verifies `evidence` for a `kind` key (`publicKeyBytes` as the registration request sent
    /// them) of relying party `relyingPartyID` at `now`, an assertion against the App Attest key the
    /// server stored (`known`): the verdict to record and the App Attest state to keep, or the
    /// refusal. It only judges; the server records.
    package func verify(
        _ evidence: KeyAttestationEvidence,
        kind: RegistrationKind,
        key: DevicePublicKey,
        publicKeyBytes: Data,
        relyingPartyID: String,
        knownAppAttestKey known: AppAttestKey?,
        now: Date
    ) async throws(AttestationFailure) -> KeyAttestationVerdict {
        switch KeyAttestationEvidence.Format(rawValue: evidence.format) {
        case .androidKey:
            guard let android else { throw AttestationFailure(.appNotAllowed, "no Android app is allowed") }
            guard let chain = evidence.certificateChain else { throw AttestationFailure(.malformed, "android-key needs certificate_chain") }
            guard key.algorithm == .es256, let p256 = try? P256.Signing.PublicKey(x963Representation: key.canonicalBytes) else {
                throw AttestationFailure(.wrongKey, "Android attests P-256 (ES256) keys")
            }
            let verdict = try android.verify(
                chain: chain.map { Array($0.data) },
                challenge: Array(evidence.challenge.data),
                publicKey: Certificate.PublicKey(p256),
                kind: kind,
                now: now
            )
            let level = verdict.securityLevel == .strongBox ? "StrongBox" : "TEE"
            return KeyAttestationVerdict(
                result: KeyAttestationResult(format: evidence.format, verdict: .verified, securityLevel: level, app: verdict.packageName)
            )
        case .appleAppAttest:
            guard let appAttest else { throw AttestationFailure(.appNotAllowed, "no iOS app is allowed") }
            guard let keyID = evidence.keyID?.data else { throw AttestationFailure(.malformed, "apple-app-attest needs key_id") }
            // App Attest vouches for the app, not the device key; the Secure Enclave holds P-256 keys only.
            guard key.algorithm == .es256 else { throw AttestationFailure(.wrongKey, "the Secure Enclave holds P-256 (ES256) keys only") }
            let message: Data
            do {
                message = try KeyAttestationMessage(relyingPartyID: relyingPartyID, publicKey: publicKeyBytes, challenge: evidence.challenge.data)
                    .encoded()
            } catch {
                throw AttestationFailure(.malformed, "a field is too long")
            }
            let clientDataHash = Array(SHA256.hash(data: message))
            let change: AppAttestKeyChange
            switch (evidence.attestation, evidence.assertion) {
            case (let attestation?, nil):
                change = .attested(
                    try await appAttest.verifyAttestation(
                        Array(attestation.data),
                        keyID: Array(keyID),
                        clientDataHash: clientDataHash,
                        now: now
                    )
                )
            case (nil, let assertion?):
                guard let stored = known else {
                    throw AttestationFailure(.keyMismatch, "an App Attest key this server never verified: send its attestation")
                }
                let next = try appAttest.verifyAssertion(Array(assertion.data), clientDataHash: clientDataHash, key: stored)
                change = .asserted(next, previous: stored.counter)
            default:
                throw AttestationFailure(.malformed, "apple-app-attest needs an attestation or an assertion, not both")
            }
            let appID: String =
                switch change {
                case .attested(let key), .asserted(let key, _): key.appID
                }
            return KeyAttestationVerdict(
                result: KeyAttestationResult(format: evidence.format, verdict: .verified, securityLevel: "Secure Enclave", app: appID),
                appAttest: change
            )
        case nil:
            throw AttestationFailure(.malformed, "format must be android-key or apple-app-attest")
        }
    }

}
