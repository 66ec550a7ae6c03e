import Crypto
import SwiftASN1
import X509

/// The `apple` anonymous format (WebAuthn Level 3 §8.8): Apple's CA certifies the credential
/// key itself, with SHA-256(`authenticatorData ‖ clientDataHash`) as a nonce in an extension.
enum AppleAttestation {
    /// 1.2.840.113635.100.8.2: `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    static func verify(_ object: AttestationObject, signed: [UInt8]) throws(WebAuthnError) -> AttestationTrustPath {
        let chain = try AttestationStatement.certificates(object.statement)
        let certificate = chain[0]
        guard let ext = certificate.extensions[oid: nonceExtension] else {
            throw WebAuthnError(.invalidAttestation, "the apple credential certificate has no nonce extension")
        }
        guard try nonce(in: ext.value) == Array(SHA256.hash(data: signed)) else {
            throw WebAuthnError(.invalidAttestation, "the apple nonce is not SHA-256(authenticatorData ‖ clientDataHash)")
        }
        guard AttestationStatement.sameKey(certificate, object.credential.publicKey) else {
            throw WebAuthnError(.invalidAttestation, "the apple certificate does not certify the credential key")
        }
        return .certificates(chain)
    }

    private static func nonce(in value: ArraySlice<UInt8>) throws(WebAuthnError) -> [UInt8] {
        do {
            let root = try DER.parse(value)
            guard case .constructed(let items) = root.content, let tagged = items.first(where: { _ in true }),
                tagged.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific),
                case .constructed(let inner) = tagged.content, let octets = inner.first(where: { _ in true })
            else {
                throw WebAuthnError(.invalidAttestation, "the apple nonce extension is malformed")
            }
            return Array(try ASN1OctetString(derEncoded: octets).bytes)
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.invalidAttestation, "the apple nonce extension is not DER")
        }
    }
}
