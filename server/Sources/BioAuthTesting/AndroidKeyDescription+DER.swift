import BioAuthAttestation
import BioAuthProtocol
import BioAuthWebAuthn
import SwiftASN1

extension AndroidKeyDescription {
    /// What the Android Keystore writes for a key an app generated as BioAuthKit for Android does
    /// (a P-256 signing key in the TEE; a biometric key per use behind a strong biometric, a PIN
    /// key only while unlocked), attested by KeyMint 3 on a locked phone that booted verified
    /// software, for `app`.
    package static func genuine(_ kind: RegistrationKind, challenge: [UInt8], app: AndroidAllowedApp) -> AndroidKeyDescription {
        var hardware = AndroidAuthorizationList()
        hardware.purposes = [AndroidAuthorizationList.purposeSign]
        hardware.algorithm = AndroidAuthorizationList.algorithmEC
        hardware.keySize = 256
        hardware.ecCurve = AndroidAuthorizationList.curveP256
        hardware.origin = AndroidAuthorizationList.originGenerated
        hardware.rootOfTrust = AndroidRootOfTrust(
            verifiedBootKey: Array(repeating: 0xA5, count: 32),
            deviceLocked: true,
            verifiedBootState: .verified
        )
        hardware.osVersion = 150000
        hardware.osPatchLevel = 202610
        var software = AndroidAuthorizationList()
        software.creationDateTime = 1_790_000_000_000
        software.attestationApplicationID = AndroidApplicationID(packageNames: [app.packageName], signatureDigests: [app.signingCertificateDigest])
        switch kind {
        case .biometric: hardware.userAuthType = AndroidAuthorizationList.authenticatorBiometric
        case .pin:
            hardware.noAuthRequired = true
            // KeyMint leaves it to the keystore daemon, which lists it as its own.
            software.unlockedDeviceRequired = true
        default: break
        }
        return AndroidKeyDescription(
            attestationVersion: 300,
            attestationSecurityLevel: .trustedEnvironment,
            keyMintVersion: 300,
            keyMintSecurityLevel: .trustedEnvironment,
            challenge: challenge,
            softwareEnforced: software,
            hardwareEnforced: hardware
        )
    }

    /// The extension's value: the DER KeyMint writes (`KeyCreationResult.aidl`'s schema).
    package func derEncoded() throws -> [UInt8] {
        var coder = DER.Serializer()
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(attestationVersion)
            try attestationSecurityLevel.rawValue.serialize(into: &coder, withIdentifier: .enumerated)
            try coder.serialize(keyMintVersion)
            try keyMintSecurityLevel.rawValue.serialize(into: &coder, withIdentifier: .enumerated)
            try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(challenge)))
            try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(uniqueID)))
            try softwareEnforced.serialize(into: &coder)
            try hardwareEnforced.serialize(into: &coder)
        }
        return coder.serializedBytes
    }
}

extension AndroidAuthorizationList {
    /// The list's DER, its tags in ascending order.
    fileprivate func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            func tagged(_ tag: Tag, _ body: (inout DER.Serializer) throws -> Void) throws {
                try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: tag.rawValue, tagClass: .contextSpecific), body)
            }
            func integer(_ tag: Tag, _ value: (some BinaryInteger & ASN1IntegerRepresentable)?) throws {
                if let value { try tagged(tag) { try $0.serialize(value) } }
            }
            func null(_ tag: Tag, _ present: Bool) throws {
                if present { try tagged(tag) { try $0.serialize(ASN1Null()) } }
            }
            if let purposes {
                try tagged(.purpose) { coder in
                    try coder.appendConstructedNode(identifier: .set) { coder in
                        for purpose in purposes.sorted() { try coder.serialize(purpose) }
                    }
                }
            }
            try integer(.algorithm, algorithm)
            try integer(.keySize, keySize)
            try integer(.ecCurve, ecCurve)
            try null(.noAuthRequired, noAuthRequired)
            try integer(.userAuthType, userAuthType)
            try integer(.authTimeout, authTimeout)
            try null(.unlockedDeviceRequired, unlockedDeviceRequired)
            try null(.allApplications, allApplications)
            try integer(.creationDateTime, creationDateTime)
            try integer(.origin, origin)
            if let rootOfTrust {
                try tagged(.rootOfTrust) { coder in
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(rootOfTrust.verifiedBootKey)))
                        try coder.serialize(rootOfTrust.deviceLocked)
                        try rootOfTrust.verifiedBootState.rawValue.serialize(into: &coder, withIdentifier: .enumerated)
                        try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(repeating: 0x5A, count: 32)))
                    }
                }
            }
            try integer(.osVersion, osVersion)
            try integer(.osPatchLevel, osPatchLevel)
            if let application = attestationApplicationID {
                var inner = DER.Serializer()
                try inner.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.appendConstructedNode(identifier: .set) { coder in
                        for name in application.packageNames {
                            try coder.appendConstructedNode(identifier: .sequence) { coder in
                                try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(name.utf8)))
                                try coder.serialize(1)
                            }
                        }
                    }
                    try coder.appendConstructedNode(identifier: .set) { coder in
                        for digest in application.signatureDigests { try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(digest))) }
                    }
                }
                try tagged(.attestationApplicationID) { try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(inner.serializedBytes))) }
            }
        }
    }
}
