import SwiftASN1
import X509

/// The `android-key` format (WebAuthn Level 3 §8.4): the Android Keystore certifies the
/// credential key, with the client data's hash as the attestation challenge, in its key
/// description extension (Android's "Key and ID attestation" schema).
enum AndroidKeyAttestation {
    /// 1.3.6.1.4.1.11129.2.1.17: KeyDescription.
    static let keyDescription: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]
    // AuthorizationList tags and values (Keymaster's tag numbers; KM_ORIGIN_GENERATED, KM_PURPOSE_SIGN).
    private static let purposeTag: UInt = 1, allApplicationsTag: UInt = 600, originTag: UInt = 702
    private static let originGenerated = 0, purposeSign = 2

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
        guard let ext = leaf.extensions[oid: keyDescription] else {
            throw WebAuthnError(.invalidAttestation, "the android-key certificate has no key description")
        }
        let description = try KeyDescription(ext.value)
        guard description.challenge == clientDataHash else {
            throw WebAuthnError(.invalidAttestation, "the attestation challenge is not the client data hash")
        }
        for list in [description.softwareEnforced, description.teeEnforced] where list[allApplicationsTag] != nil {
            throw WebAuthnError(.invalidAttestation, "the key is usable by all applications")
        }
        // Only the TEE's (or StrongBox's) own list counts: a bank wants keys the secure hardware made.
        guard let origin = description.teeEnforced[originTag], try integer(origin) == originGenerated else {
            throw WebAuthnError(.invalidAttestation, "the secure hardware did not generate the key")
        }
        guard let purposes = description.teeEnforced[purposeTag], try set(purposes).contains(purposeSign) else {
            throw WebAuthnError(.invalidAttestation, "the secure hardware does not restrict the key to signing")
        }
        return .certificates(chain)
    }

    /// The parts of KeyDescription the checks read.
    private struct KeyDescription {
        var challenge: [UInt8]
        var softwareEnforced: [UInt: ASN1Node]
        var teeEnforced: [UInt: ASN1Node]

        init(_ value: ArraySlice<UInt8>) throws(WebAuthnError) {
            do {
                let root = try DER.parse(value)
                guard case .constructed(let fields) = root.content else { throw ASN1Error.invalidASN1Object(reason: "not a SEQUENCE") }
                let items = Array(fields)
                guard items.count >= 8 else { throw ASN1Error.invalidASN1Object(reason: "too few fields") }
                challenge = Array(try ASN1OctetString(derEncoded: items[4]).bytes)
                softwareEnforced = try Self.authorizations(items[6])
                teeEnforced = try Self.authorizations(items[7])
            } catch {
                throw WebAuthnError(.invalidAttestation, "the key description is malformed")
            }
        }

        /// An AuthorizationList: a SEQUENCE of `[tag] EXPLICIT value`, by tag number.
        static func authorizations(_ node: ASN1Node) throws -> [UInt: ASN1Node] {
            guard case .constructed(let entries) = node.content else { throw ASN1Error.invalidASN1Object(reason: "not a SEQUENCE") }
            var list: [UInt: ASN1Node] = [:]
            for entry in entries where entry.identifier.tagClass == .contextSpecific {
                guard case .constructed(let inner) = entry.content, let value = Array(inner).first else { continue }
                list[entry.identifier.tagNumber] = value
            }
            return list
        }
    }

    private static func integer(_ node: ASN1Node) throws(WebAuthnError) -> Int {
        do { return try Int(derEncoded: node) } catch { throw WebAuthnError(.invalidAttestation, "an authorization is not an INTEGER") }
    }

    private static func set(_ node: ASN1Node) throws(WebAuthnError) -> [Int] {
        guard case .constructed(let items) = node.content else { throw WebAuthnError(.invalidAttestation, "purpose is not a SET") }
        var values: [Int] = []
        for item in items { values.append(try integer(item)) }
        return values
    }
}
