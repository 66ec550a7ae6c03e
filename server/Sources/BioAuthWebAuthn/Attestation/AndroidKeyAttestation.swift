import SwiftASN1
import X509

/// The `android-key` format (WebAuthn Level 3 §8.4): the Android Keystore certifies the
/// credential key, with the client data's hash as the attestation challenge, in its key
/// description extension (Android's "Key and ID attestation" schema).
enum AndroidKeyAttestation {
    static func verify(_ object: AttestationObject, signed: [UInt8], clientDataHash: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let alg = try AttestationStatement.algorithm(object.statement)
        let signature = try AttestationStatement.bytes(object.statement, "sig")
        let chain = try AttestationStatement.certificates(object.statement)
        let leaf = chain[0]
        guard try AttestationStatement.verifies(leaf, signature, over: signed, alg: alg) else {
            throw WebAuthnError(.invalidAttestation, "the android-key signature does not verify")
        }
        guard AttestationStatement.sameKey(leaf, object.credential.publicKey) else {
            throw WebAuthnError(.invalidAttestation, "the android-key certificate does not certify the credential key")
        }
        guard let ext = leaf.extensions[oid: AndroidKeyDescription.extensionID] else {
            throw WebAuthnError(.invalidAttestation, "the android-key certificate has no key description")
        }
        let description: AndroidKeyDescription
        do { description = try AndroidKeyDescription(derEncoded: ext.value) } catch {
            throw WebAuthnError(.invalidAttestation, "the key description is malformed: \(error)")
        }
        guard description.challenge == clientDataHash else {
            throw WebAuthnError(.invalidAttestation, "the attestation challenge is not the client data hash")
        }
        guard !description.softwareEnforced.allApplications && !description.hardwareEnforced.allApplications else {
            throw WebAuthnError(.invalidAttestation, "the key is usable by all applications")
        }
        // Only the TEE's (or StrongBox's) own list counts: a bank wants keys the secure hardware made.
        guard description.hardwareEnforced.origin == AndroidAuthorizationList.originGenerated else {
            throw WebAuthnError(.invalidAttestation, "the secure hardware did not generate the key")
        }
        guard description.hardwareEnforced.purposes?.contains(AndroidAuthorizationList.purposeSign) == true else {
            throw WebAuthnError(.invalidAttestation, "the secure hardware does not restrict the key to signing")
        }
        return .certificates(chain)
    }
}
