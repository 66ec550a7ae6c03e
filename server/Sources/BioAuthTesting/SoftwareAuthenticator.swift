import BioAuthProtocol
import BioAuthWebAuthn
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// A WebAuthn authenticator and client in software (as Chromium's virtual authenticator): it
/// answers creation and request options with the Level 3 JSON a browser's `toJSON()` gives, and
/// can be told to lie (flags, counter, origin, signature) so that tests show the relying party
/// refusing each lie.
///
/// `@unchecked`: its state is only touched by the one test that owns it; swift-crypto's keys
/// are not marked `Sendable` on Linux.
package final class SoftwareAuthenticator: @unchecked Sendable {
    /// Which statement a registration carries.
    package enum Attestation {
        /// `fmt` `none`.
        case none
        /// `packed`, signed by the credential key itself.
        case packedSelf
        /// `packed` with `x5c`, signed by an attestation key an ``AttestationCA`` certified.
        case packed(AttestationCA)
        /// `fido-u2f`, signed by an attestation key an ``AttestationCA`` certified.
        case fidoU2F(AttestationCA)
    }

    /// One credential the authenticator holds.
    package struct Credential {
        /// The credential id.
        package var id: [UInt8]
        /// The RP id it is scoped to.
        package var rpID: String
        /// The user handle it was made for.
        package var userHandle: [UInt8]
        /// Its key.
        package var key: SigningKey
        /// Its signature counter.
        package var signCount: UInt32
    }

    /// A credential's private key.
    package enum SigningKey {
        case es256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)

        /// The COSE_Key of the public key, canonically encoded.
        var cose: [UInt8] {
            func label(_ n: Int64) -> CBORValue { n >= 0 ? .unsigned(UInt64(n)) : .negative(UInt64(-1 - n)) }
            let entries: [(Int64, CBORValue)]
            switch self {
            case .es256(let key):
                let point = Array(key.publicKey.x963Representation)
                entries = [(1, label(2)), (3, label(-7)), (-1, label(1)), (-2, .bytes(Array(point[1...32]))), (-3, .bytes(Array(point[33...64])))]
            case .ed25519(let key):
                entries = [(1, label(1)), (3, label(-8)), (-1, label(6)), (-2, .bytes(Array(key.publicKey.rawRepresentation)))]
            case .rs256(let key):
                let primitives = try! key.publicKey.getKeyPrimitives()
                entries = [(1, label(3)), (3, label(-257)), (-1, .bytes(Array(primitives.modulus))), (-2, .bytes(Array(primitives.publicExponent)))]
            }
            return CBOREncoder.encode(.map(entries.map { CBORValue.Entry(label($0.0), $0.1) }))
        }

        func sign(_ data: [UInt8]) -> [UInt8] {
            switch self {
            case .es256(let key): Array(try! key.signature(for: data).derRepresentation)
            case .ed25519(let key): Array(try! key.signature(for: data))
            case .rs256(let key): Array(try! key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
            }
        }
    }

    /// The origin the client reports (the page's).
    package var origin: String
    /// The AAGUID it reports.
    package var aaguid = UUID(uuidString: "B10A0000-0000-4000-8000-0000000000A1")!
    /// The statement a registration carries.
    package var attestation: Attestation = .none
    /// Which algorithm a new credential uses, when the options offer it.
    package var algorithm: COSEAlgorithm = .es256
    /// UP, UV, BE and BS as the next response sets them.
    package var userPresent = true, userVerified = true, backupEligible = false, backedUp = false
    /// How much each use adds to a credential's counter (0: the authenticator keeps none).
    package var counterStep: UInt32 = 1
    /// What the client data says besides type, challenge and origin: set `crossOrigin` and
    /// `topOrigin` to pretend to be embedded.
    package var crossOrigin: Bool? = nil, topOrigin: String? = nil
    /// The credentials, newest last.
    package private(set) var credentials: [Credential] = []

    /// An authenticator reporting `origin`.
    package init(origin: String) {
        self.origin = origin
    }

    /// Answers `navigator.credentials.create()`: makes a credential for the options' RP and
    /// user, unless one of `excludeCredentials` is already here (then it throws, as a browser's
    /// `InvalidStateError`).
    package func register(_ options: PublicKeyCredentialCreationOptionsJSON, type: String = "webauthn.create") throws -> RegistrationResponseJSON {
        struct Excluded: Error {}
        if options.excludeCredentials.contains(where: { excluded in credentials.contains { $0.id == Array(excluded.id.data) } }) {
            throw Excluded()
        }
        let key: SigningKey =
            switch algorithm {
            case .es256: .es256(P256.Signing.PrivateKey())
            case .eddsa: .ed25519(Curve25519.Signing.PrivateKey())
            case .rs256: .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048))
            }
        let credential = Credential(
            id: (0..<16).map { _ in UInt8.random(in: 0...255) },
            rpID: options.rp.id,
            userHandle: Array(options.user.id.data),
            key: key,
            signCount: counterStep
        )
        credentials.append(credential)
        let clientDataJSON = clientData(type: type, challenge: options.challenge)
        let authData = authenticatorData(rpID: credential.rpID, signCount: credential.signCount, attested: credential)
        let statement = try attestationStatement(credential, authData: authData, clientDataHash: Array(SHA256.hash(data: clientDataJSON)))
        let object = CBOREncoder.encode(
            .map([
                .init(.text("fmt"), .text(statement.format)), .init(.text("attStmt"), statement.statement),
                .init(.text("authData"), .bytes(authData)),
            ])
        )
        return RegistrationResponseJSON(
            id: Base64URL.encode(credential.id),
            rawId: Base64URLBytes(credential.id),
            response: .init(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                attestationObject: Base64URLBytes(object),
                authenticatorData: Base64URLBytes(authData),
                transports: ["internal"]
            ),
            authenticatorAttachment: "platform",
            clientExtensionResults: .init(credProps: .init(rk: true)),
            type: "public-key"
        )
    }

    /// Answers `navigator.credentials.get()`: the newest credential for the RP that
    /// `allowCredentials` allows (any, when it is empty), or `credentialID` when given.
    package func authenticate(
        _ options: PublicKeyCredentialRequestOptionsJSON,
        credentialID: [UInt8]? = nil,
        type: String = "webauthn.get"
    ) throws -> AuthenticationResponseJSON {
        struct NoCredential: Error {}
        let allowed = Set(options.allowCredentials.map { Array($0.id.data) })
        guard
            let index = credentials.lastIndex(where: { credential in
                credential.rpID == options.rpId && (credentialID.map { $0 == credential.id } ?? (allowed.isEmpty || allowed.contains(credential.id)))
            })
        else { throw NoCredential() }
        credentials[index].signCount &+= counterStep
        let credential = credentials[index]
        let clientDataJSON = clientData(type: type, challenge: options.challenge)
        let authData = authenticatorData(rpID: credential.rpID, signCount: credential.signCount, attested: nil)
        let signature = credential.key.sign(authData + Array(SHA256.hash(data: clientDataJSON)))
        return AuthenticationResponseJSON(
            id: Base64URL.encode(credential.id),
            rawId: Base64URLBytes(credential.id),
            response: .init(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                authenticatorData: Base64URLBytes(authData),
                signature: Base64URLBytes(signature),
                userHandle: Base64URLBytes(credential.userHandle)
            ),
            authenticatorAttachment: "platform",
            clientExtensionResults: .init(),
            type: "public-key"
        )
    }

    /// Sets a credential's counter (to replay an old value, as a clone would).
    package func setSignCount(_ count: UInt32, of id: [UInt8]) {
        for index in credentials.indices where credentials[index].id == id { credentials[index].signCount = count }
    }

    // The bytes.

    private func clientData(type: String, challenge: Base64URLBytes) -> [UInt8] {
        var members = [#""type":"\#(type)""#, #""challenge":"\#(challenge.base64URL)""#, #""origin":"\#(origin)""#]
        if let crossOrigin { members.append(#""crossOrigin":\#(crossOrigin)"#) }
        if let topOrigin { members.append(#""topOrigin":"\#(topOrigin)""#) }
        return Array("{\(members.joined(separator: ","))}".utf8)
    }

    private func authenticatorData(rpID: String, signCount: UInt32, attested: Credential?) -> [UInt8] {
        var flags: UInt8 = 0
        if userPresent { flags |= 0x01 }
        if userVerified { flags |= 0x04 }
        if backupEligible { flags |= 0x08 }
        if backedUp { flags |= 0x10 }
        if attested != nil { flags |= 0x40 }
        var data = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + withUnsafeBytes(of: signCount.bigEndian) { Array($0) }
        if let attested {
            data += aaguid.bytes + [UInt8(attested.id.count >> 8), UInt8(attested.id.count & 0xFF)] + attested.id + attested.key.cose
        }
        return data
    }

    private func attestationStatement(
        _ credential: Credential,
        authData: [UInt8],
        clientDataHash: [UInt8]
    ) throws -> (format: String, statement: CBORValue) {
        let signed = authData + clientDataHash
        switch attestation {
        case .none:
            return ("none", .map([]))
        case .packedSelf:
            let alg = Int64(try COSEKey(try CBORDecoder().decode(credential.key.cose)).algorithm.rawValue)
            return ("packed", .map([.init(.text("alg"), Self.integer(alg)), .init(.text("sig"), .bytes(credential.key.sign(signed)))]))
        case .packed(let ca):
            let (key, certificate) = try ca.issueAttestationCertificate(aaguid: aaguid)
            return (
                "packed",
                .map([
                    .init(.text("alg"), Self.integer(-7)), .init(.text("sig"), .bytes(Array(try key.signature(for: signed).derRepresentation))),
                    .init(.text("x5c"), .array([.bytes(certificate)])),
                ])
            )
        case .fidoU2F(let ca):
            let (key, certificate) = try ca.issueAttestationCertificate(aaguid: nil)
            guard case .es256(let credentialKey) = credential.key else { throw COSEAlgorithmError() }
            let verificationData =
                [0x00] + Array(authData[0..<32]) + clientDataHash + credential.id + Array(credentialKey.publicKey.x963Representation)
            return (
                "fido-u2f",
                .map([
                    .init(.text("sig"), .bytes(Array(try key.signature(for: verificationData).derRepresentation))),
                    .init(.text("x5c"), .array([.bytes(certificate)])),
                ])
            )
        }
    }

    private struct COSEAlgorithmError: Error {}

    private static func integer(_ n: Int64) -> CBORValue { n >= 0 ? .unsigned(UInt64(n)) : .negative(UInt64(-1 - n)) }
}

/// A throwaway attestation CA: a root an operator would configure, which certifies one
/// attestation key per call with the subject WebAuthn's `packed` format requires.
package struct AttestationCA: @unchecked Sendable {
    /// The root certificate, to configure as a trust root.
    package let root: Certificate
    private let rootKey: P256.Signing.PrivateKey
    private let name: DistinguishedName
    private let validity: ClosedRange<Date>

    /// A new root named `commonName`, valid over `validity`.
    package init(commonName: String = "BioAuth Test Attestation Root", validity: ClosedRange<Date>) throws {
        rootKey = P256.Signing.PrivateKey()
        name = try DistinguishedName {
            CountryName("DE")
            OrganizationName("BioAuth Tests")
            CommonName(commonName)
        }
        self.validity = validity
        root = try TestCertificateAuthority.certificate(
            subject: name,
            publicKey: .init(rootKey.publicKey),
            issuer: name,
            issuerKey: .init(rootKey),
            signatureAlgorithm: .ecdsaWithSHA256,
            validity: validity
        )
    }

    /// A new attestation key and its DER certificate (the AAGUID extension when `aaguid` is given).
    func issueAttestationCertificate(aaguid: UUID?) throws -> (P256.Signing.PrivateKey, [UInt8]) {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CountryName("DE")
            OrganizationName("BioAuth Tests")
            OrganizationalUnitName("Authenticator Attestation")
            CommonName("Software Authenticator")
        }
        var extensions = try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) }
        if let aaguid {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
            try extensions.append(
                Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: ArraySlice(serializer.serializedBytes))
            )
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(key.publicKey),
            notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound,
            issuer: name,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(rootKey)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return (key, serializer.serializedBytes)
    }
}
