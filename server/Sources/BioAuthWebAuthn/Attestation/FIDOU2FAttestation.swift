import Crypto
import X509

/// The `fido-u2f` format (WebAuthn Level 3 §8.6): a U2F authenticator's registration signature,
/// by its one P-256 attestation certificate, over U2F's own message layout.
enum FIDOU2FAttestation {
    static func verify(_ object: AttestationObject, clientDataHash: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let chain = try AttestationStatement.certificates(object.statement)
        guard chain.count == 1 else { throw WebAuthnError(.invalidAttestation, "fido-u2f takes exactly one certificate") }
        guard P256.Signing.PublicKey(chain[0].publicKey) != nil else {
            throw WebAuthnError(.invalidAttestation, "the fido-u2f certificate's key is not P-256")
        }
        guard case .es256(let key) = object.credential.publicKey else {
            throw WebAuthnError(.invalidAttestation, "a fido-u2f credential is an ES256 key")
        }
        let signature = try AttestationStatement.bytes(object.statement, "sig")
        // 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ publicKeyU2F (the uncompressed point).
        let verificationData: [UInt8] =
            [0x00] + object.authenticatorData.rpIDHash + clientDataHash + object.credential.credentialID
            + Array(key.x963Representation)
        guard try AttestationStatement.verifies(chain[0], signature, over: verificationData, alg: -7) else {
            throw WebAuthnError(.invalidAttestation, "the fido-u2f signature does not verify")
        }
        return .certificates(chain)
    }
}
