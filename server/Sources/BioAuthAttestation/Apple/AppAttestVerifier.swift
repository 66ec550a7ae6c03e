import BioAuthWebAuthn
import Crypto
import Foundation
import SwiftASN1
import X509

/// Verifies App Attest attestations and assertions as Apple's "Validating apps that connect to
/// your server" lays the steps out (its numbers in the comments).
package struct AppAttestVerifier: Sendable {
    /// 1.2.840.113635.100.8.2: the nonce in the credential certificate.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    /// The trust anchors: Apple's App Attestation Root CA unless a test gives its own.
    package var roots: [Certificate]
    /// What the operator accepts.
    package var policy: AppAttestPolicy

    /// A verifier anchored on Apple's root by default.
    package init(roots: [Certificate] = AttestationRoots.appleAppAttest, policy: AppAttestPolicy) {
        self.roots = roots
        self.policy = policy
    }

    /// Verifies the attestation object `DCAppAttestService.attestKey(keyID, clientDataHash:)`
    /// returned, at `now`; returns the key to keep.
    package func verifyAttestation(
        _ object: [UInt8],
        keyID: [UInt8],
        clientDataHash: [UInt8],
        now: Date
    ) async throws(AttestationFailure) -> AppAttestKey {
        let (chain, authData) = try Self.decodeAttestation(object)
        // 1. The chain to Apple's root, every certificate valid now.
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy(validationTime: now) }
        let result = await verifier.validate(leaf: chain[0], intermediates: CertificateStore(chain.dropFirst()))
        guard case .validCertificate = result else { throw AttestationFailure(.untrustedChain, "at \(now)") }
        // 2–4. nonce = SHA-256(authData ‖ clientDataHash), in the certificate.
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        guard try Self.certifiedNonce(chain[0]) == nonce else { throw AttestationFailure(.challengeMismatch) }
        // 5. The key id is SHA-256 of the certified public key.
        guard let publicKey = P256.Signing.PublicKey(chain[0].publicKey) else { throw AttestationFailure(.wrongKey, "not a P-256 key") }
        let point = Array(publicKey.x963Representation)
        guard Array(SHA256.hash(data: point)) == keyID else { throw AttestationFailure(.keyMismatch, "the key id is not the certified key's") }
        let data = try AppAttestAuthenticatorData(authData, withCredential: true)
        // 6. The RP ID hash is SHA-256 of an allowed App ID.
        let appID = try allowedApp(data.rpIDHash)
        // 7–9. Counter 0, the environment's AAGUID, the key id as credential id.
        guard data.counter == 0 else { throw AttestationFailure(.malformed, "an attestation's counter is \(data.counter)") }
        guard data.aaguid == policy.environment.aaguid else { throw AttestationFailure(.wrongEnvironment, "not \(policy.environment)") }
        guard data.credentialID == keyID else { throw AttestationFailure(.keyMismatch, "the credential id is not the key id") }
        return AppAttestKey(keyID: keyID, publicKey: point, appID: appID, counter: 0)
    }

    /// Verifies an assertion `DCAppAttestService.generateAssertion(keyID, clientDataHash:)`
    /// returned for `key`; returns the key with the assertion's counter, to keep.
    package func verifyAssertion(_ assertion: [UInt8], clientDataHash: [UInt8], key: AppAttestKey) throws(AttestationFailure) -> AppAttestKey {
        let value: CBORValue
        do { value = try CBORDecoder().decode(assertion) } catch { throw AttestationFailure(.malformed, "assertion: \(error)") }
        guard case .bytes(let signature)? = value["signature"], case .bytes(let authData)? = value["authenticatorData"] else {
            throw AttestationFailure(.malformed, "an assertion needs bytes signature and authenticatorData")
        }
        // 1–3. The stored key signed nonce = SHA-256(authenticatorData ‖ clientDataHash).
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        guard let publicKey = try? P256.Signing.PublicKey(x963Representation: key.publicKey),
            let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            publicKey.isValidSignature(ecdsa, for: nonce)
        else { throw AttestationFailure(.assertionInvalid, "the signature does not verify") }
        let data = try AppAttestAuthenticatorData(authData, withCredential: false)
        // 4. The app the key was attested for.
        guard data.rpIDHash == Array(SHA256.hash(data: Data(key.appID.utf8))), policy.appIDs.contains(key.appID) else {
            throw AttestationFailure(.appNotAllowed, "the assertion is not for \(key.appID)")
        }
        // 5. The counter grew (a replayed or cloned key's does not).
        guard data.counter > key.counter else { throw AttestationFailure(.assertionInvalid, "counter \(data.counter) after \(key.counter)") }
        var updated = key
        updated.counter = data.counter
        return updated
    }

    private static func decodeAttestation(_ object: [UInt8]) throws(AttestationFailure) -> ([Certificate], [UInt8]) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(object) } catch { throw AttestationFailure(.malformed, "attestation object: \(error)") }
        guard case .text("apple-appattest")? = value["fmt"], case .bytes(let authData)? = value["authData"],
            case .array(let x5c)? = value["attStmt"]?["x5c"], (2...4).contains(x5c.count)
        else { throw AttestationFailure(.malformed, "not an apple-appattest attestation object") }
        var chain: [Certificate] = []
        for item in x5c {
            guard case .bytes(let der) = item, let certificate = try? Certificate(derEncoded: der) else {
                throw AttestationFailure(.malformed, "x5c holds something other than a DER certificate")
            }
            chain.append(certificate)
        }
        return (chain, authData)
    }

    /// The extension's `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    private static func certifiedNonce(_ leaf: Certificate) throws(AttestationFailure) -> [UInt8] {
        guard let ext = leaf.extensions[oid: nonceExtension] else { throw AttestationFailure(.malformed, "the certificate has no nonce") }
        do {
            let root = try DER.parse(ext.value)
            guard case .constructed(let fields) = root.content, let tagged = Array(fields).first,
                tagged.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific),
                case .constructed(let inner) = tagged.content, let octets = Array(inner).first
            else { throw AttestationFailure(.malformed, "the nonce extension is not SEQUENCE { [1] OCTET STRING }") }
            return Array(try ASN1OctetString(derEncoded: octets).bytes)
        } catch let failure as AttestationFailure {
            throw failure
        } catch {
            throw AttestationFailure(.malformed, "the nonce extension: \(error)")
        }
    }

    private func allowedApp(_ rpIDHash: [UInt8]) throws(AttestationFailure) -> String {
        guard let appID = policy.appIDs.first(where: { Array(SHA256.hash(data: Data($0.utf8))) == rpIDHash }) else {
            throw AttestationFailure(.appNotAllowed, "the RP ID hash is no allowed App ID's")
        }
        return appID
    }
}
