import BioAuthWebAuthn
import Crypto
import Foundation
import SwiftASN1
import X509

/// A throwaway stand-in for Apple's App Attest service: a root and an intermediate like Apple's,
/// which certify App Attest keys in Apple's formats (`apple-appattest` attestation objects and
/// assertions, as "Validating apps that connect to your server" describes them).
package struct AppAttestAuthority: @unchecked Sendable {
    /// The root certificate, to configure in place of Apple's.
    package let root: Certificate
    private let intermediate: Certificate
    private let intermediateKey: P384.Signing.PrivateKey
    private let validity: ClosedRange<Date>

    /// A new hierarchy valid over `validity`.
    package init(validity: ClosedRange<Date>) throws {
        let rootKey = P384.Signing.PrivateKey()
        intermediateKey = P384.Signing.PrivateKey()
        self.validity = validity
        let rootName = try DistinguishedName { CommonName("BioAuth Test App Attestation Root CA") }
        root = try TestCertificateAuthority.certificate(
            subject: rootName,
            publicKey: .init(rootKey.publicKey),
            issuer: rootName,
            issuerKey: .init(rootKey),
            signatureAlgorithm: .ecdsaWithSHA384,
            validity: validity,
            crlSign: true
        )
        intermediate = try TestCertificateAuthority.certificate(
            subject: try DistinguishedName { CommonName("BioAuth Test App Attestation CA 1") },
            publicKey: .init(intermediateKey.publicKey),
            issuer: rootName,
            issuerKey: .init(rootKey),
            signatureAlgorithm: .ecdsaWithSHA384,
            validity: validity,
            pathLength: 0,
            crlSign: true
        )
    }

    /// The key id `generateKey` returns for `key`: SHA-256 of its X9.63 public key.
    package static func keyID(_ key: P256.Signing.PublicKey) -> [UInt8] { Array(SHA256.hash(data: key.x963Representation)) }

    /// What `attestKey(keyID, clientDataHash:)` returns for `key` of `appID` in `environment`
    /// (`"production"` or `"development"`). `certifiedNonce` replaces the nonce the certificate
    /// should carry, `counter` the zero an attestation's data should carry.
    package func attestation(
        of key: P256.Signing.PublicKey,
        appID: String,
        environment: String = "production",
        clientDataHash: [UInt8],
        certifiedNonce: [UInt8]? = nil,
        counter: UInt32 = 0
    ) throws -> [UInt8] {
        let keyID = Self.keyID(key)
        let aaguid = environment == "production" ? Array("appattest".utf8) + Array(repeating: 0, count: 7) : Array("appattestdevelop".utf8)
        var authData = Array(SHA256.hash(data: Data(appID.utf8))) + [0x40] + Self.bigEndian(counter) + aaguid
        authData += [UInt8(keyID.count >> 8), UInt8(keyID.count & 0xFF)] + keyID
        authData += CBOREncoder.encode(
            .map([
                .init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .negative(6)), .init(.negative(0), .unsigned(1)),
                .init(.negative(1), .bytes(Array(key.x963Representation.dropFirst().prefix(32)))),
                .init(.negative(2), .bytes(Array(key.x963Representation.suffix(32)))),
            ])
        )
        let nonce = certifiedNonce ?? Array(SHA256.hash(data: authData + clientDataHash))
        var nonceValue = DER.Serializer()
        try nonceValue.appendConstructedNode(identifier: .sequence) { coder in
            try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) {
                try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(nonce)))
            }
        }
        let leaf = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key),
            notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound,
            issuer: intermediate.subject,
            subject: try DistinguishedName {
                OrganizationalUnitName("AAA Certification")
                CommonName(keyID.map { String(format: "%02x", $0) }.joined())
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Certificate.Extension(oid: [1, 2, 840, 113_635, 100, 8, 2], critical: false, value: ArraySlice(nonceValue.serializedBytes))
            },
            issuerPrivateKey: .init(intermediateKey)
        )
        let x5c = try [leaf, intermediate].map { certificate -> CBORValue in
            var coder = DER.Serializer()
            try coder.serialize(certificate)
            return .bytes(coder.serializedBytes)
        }
        return CBOREncoder.encode(
            .map([
                .init(.text("fmt"), .text("apple-appattest")),
                .init(.text("attStmt"), .map([.init(.text("x5c"), .array(x5c)), .init(.text("receipt"), .bytes([0x30, 0x00]))])),
                .init(.text("authData"), .bytes(authData)),
            ])
        )
    }

    /// What `generateAssertion(keyID, clientDataHash:)` returns when the key's counter is `counter`.
    /// Apple sets the AT flag though no credential follows; so does this.
    package static func assertion(by key: P256.Signing.PrivateKey, appID: String, counter: UInt32, clientDataHash: [UInt8]) throws -> [UInt8] {
        let authData = Array(SHA256.hash(data: Data(appID.utf8))) + [0x40] + bigEndian(counter)
        let signature = try key.signature(for: SHA256.hash(data: authData + clientDataHash).withUnsafeBytes { Array($0) })
        return CBOREncoder.encode(
            .map([.init(.text("signature"), .bytes(Array(signature.derRepresentation))), .init(.text("authenticatorData"), .bytes(authData))])
        )
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
