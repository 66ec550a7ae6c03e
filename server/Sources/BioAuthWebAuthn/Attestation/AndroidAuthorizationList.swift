import SwiftASN1

/// The authorizations of a key description this server reads (`AuthorizationList ::= SEQUENCE`
/// of `[tag] EXPLICIT ... OPTIONAL`, tags as KeyMint's `Tag.aidl` numbers them, in ascending
/// order). Tags it does not read are skipped.
package struct AndroidAuthorizationList: Hashable, Sendable {
    /// The tag numbers this server reads.
    package enum Tag: UInt, CaseIterable, Sendable {
        case purpose = 1
        case algorithm = 2
        case keySize = 3
        case ecCurve = 10
        case noAuthRequired = 503
        case userAuthType = 504
        case authTimeout = 505
        case unlockedDeviceRequired = 509
        case allApplications = 600
        case creationDateTime = 701
        case origin = 702
        case rootOfTrust = 704
        case osVersion = 705
        case osPatchLevel = 706
        case attestationApplicationID = 709
    }

    /// `KeyPurpose`: SIGN is 2.
    package var purposes: Set<Int>?
    /// `Algorithm`: EC is 3.
    package var algorithm: Int?
    /// In bits.
    package var keySize: Int?
    /// `EcCurve`: P_256 is 1.
    package var ecCurve: Int?
    /// The key can be used without the user authenticating.
    package var noAuthRequired = false
    /// `HardwareAuthenticatorType` bits: PASSWORD 1, FINGERPRINT (any strong biometric) 2.
    package var userAuthType: Int?
    /// Seconds an authentication stays valid; absent for a key that needs one per use.
    package var authTimeout: Int?
    /// The key works only while the device is unlocked.
    package var unlockedDeviceRequired = false
    /// Any app of the device may use the key (Keymaster 2 and 3 only).
    package var allApplications = false
    /// When the key was made, in milliseconds since 1970.
    package var creationDateTime: Int64?
    /// `KeyOrigin`: GENERATED is 0.
    package var origin: Int?
    /// The device's boot state.
    package var rootOfTrust: AndroidRootOfTrust?
    /// Android's version, as `MMmmpp` (160000 is 16.0.0).
    package var osVersion: Int?
    /// The security patch level, as `YYYYMM`.
    package var osPatchLevel: Int?
    /// The app (or apps sharing its user id) that made the key.
    package var attestationApplicationID: AndroidApplicationID?

    /// `KeyPurpose::SIGN`.
    package static let purposeSign = 2
    /// `Algorithm::EC`.
    package static let algorithmEC = 3
    /// `EcCurve::P_256`.
    package static let curveP256 = 1
    /// `KeyOrigin::GENERATED`.
    package static let originGenerated = 0
    /// `HardwareAuthenticatorType::FINGERPRINT`: any strong biometric.
    package static let authenticatorBiometric = 2

    /// An empty list.
    package init() {}

    init(_ node: ASN1Node) throws {
        guard case .constructed(let entries) = node.content, node.identifier == .sequence else {
            throw AndroidKeyDescriptionError("an authorization list is not a SEQUENCE")
        }
        var previous: UInt?
        for entry in entries {
            let number = entry.identifier.tagNumber
            guard entry.identifier.tagClass == .contextSpecific, case .constructed(let inner) = entry.content else {
                throw AndroidKeyDescriptionError("an authorization is not an explicitly tagged value")
            }
            // KeyMint's schema orders the tags; Google's verifier refuses a list that does not.
            if let previous, number <= previous { throw AndroidKeyDescriptionError("tag \(number) after \(previous)") }
            previous = number
            let values = Array(inner)
            guard values.count == 1 else { throw AndroidKeyDescriptionError("tag \(number) holds \(values.count) values") }
            guard let tag = Tag(rawValue: number) else { continue }
            try read(tag, values[0])
        }
    }

    private mutating func read(_ tag: Tag, _ value: ASN1Node) throws {
        switch tag {
        case .purpose: purposes = try Self.integerSet(value)
        case .algorithm: algorithm = try Int(derEncoded: value)
        case .keySize: keySize = try Int(derEncoded: value)
        case .ecCurve: ecCurve = try Int(derEncoded: value)
        case .noAuthRequired: noAuthRequired = try Self.null(value)
        case .userAuthType: userAuthType = try Int(derEncoded: value)
        case .authTimeout: authTimeout = try Int(derEncoded: value)
        case .unlockedDeviceRequired: unlockedDeviceRequired = try Self.null(value)
        case .allApplications: allApplications = try Self.null(value)
        case .creationDateTime: creationDateTime = try Int64(derEncoded: value)
        case .origin: origin = try Int(derEncoded: value)
        case .rootOfTrust: rootOfTrust = try AndroidRootOfTrust(value)
        case .osVersion: osVersion = try Int(derEncoded: value)
        case .osPatchLevel: osPatchLevel = try Int(derEncoded: value)
        case .attestationApplicationID:
            attestationApplicationID = try AndroidApplicationID(derEncoded: try ASN1OctetString(derEncoded: value).bytes)
        }
    }

    private static func null(_ node: ASN1Node) throws -> Bool {
        _ = try ASN1Null(derEncoded: node)
        return true
    }

    private static func integerSet(_ node: ASN1Node) throws -> Set<Int> {
        guard case .constructed(let items) = node.content, node.identifier == .set else {
            throw AndroidKeyDescriptionError("a SET OF INTEGER is not a SET")
        }
        var values: Set<Int> = []
        for item in items { values.insert(try Int(derEncoded: item)) }
        return values
    }
}

/// The boot state the secure hardware saw (`RootOfTrust ::= SEQUENCE { verifiedBootKey OCTET
/// STRING, deviceLocked BOOLEAN, verifiedBootState VerifiedBootState, verifiedBootHash OCTET
/// STRING }`, the hash from attestation version 3 on).
package struct AndroidRootOfTrust: Hashable, Sendable {
    /// `VerifiedBootState ::= ENUMERATED`.
    package enum BootState: Int, Hashable, Sendable {
        /// The boot chain is the device maker's, its key built in.
        case verified = 0
        /// The boot chain is signed by a key the user installed (a custom ROM with a locked bootloader).
        case selfSigned = 1
        /// Anything may have booted (an unlocked bootloader).
        case unverified = 2
        /// Verification failed.
        case failed = 3
    }

    /// The key that verified the boot image (all zeros when the bootloader is unlocked).
    package var verifiedBootKey: [UInt8]
    /// Whether the bootloader is locked.
    package var deviceLocked: Bool
    /// What verified boot found.
    package var verifiedBootState: BootState

    /// A root of trust from its parts.
    package init(verifiedBootKey: [UInt8], deviceLocked: Bool, verifiedBootState: BootState) {
        self.verifiedBootKey = verifiedBootKey
        self.deviceLocked = deviceLocked
        self.verifiedBootState = verifiedBootState
    }

    init(_ node: ASN1Node) throws {
        guard case .constructed(let fields) = node.content, node.identifier == .sequence else {
            throw AndroidKeyDescriptionError("the root of trust is not a SEQUENCE")
        }
        let items = Array(fields)
        guard items.count == 3 || items.count == 4 else { throw AndroidKeyDescriptionError("the root of trust has \(items.count) fields") }
        verifiedBootKey = Array(try ASN1OctetString(derEncoded: items[0]).bytes)
        deviceLocked = try Self.boolean(items[1])
        let state = try Int(derEncoded: items[2], withIdentifier: .enumerated)
        guard let bootState = BootState(rawValue: state) else { throw AndroidKeyDescriptionError("verified boot state \(state)") }
        verifiedBootState = bootState
    }

    /// A BOOLEAN as Google's verifier reads it (android/keyattestation's `Extension.kt` through
    /// BouncyCastle's `ASN1Boolean`): one content byte, zero false and anything else true. DER asks
    /// for 0xFF; real devices write 0x01 (android/keyattestation's
    /// testdata/invalid/malformed_rot_device_locked.pem, which its ExtensionTest reads as locked).
    static func boolean(_ node: ASN1Node) throws -> Bool {
        guard node.identifier == .boolean, case .primitive(let content) = node.content, content.count == 1 else {
            throw AndroidKeyDescriptionError("deviceLocked is not a BOOLEAN")
        }
        return content.first != 0
    }
}

/// The app that made the key, as Android's package manager knows it (`AttestationApplicationId
/// ::= SEQUENCE { package_infos SET OF SEQUENCE { package_name OCTET STRING, version INTEGER },
/// signature_digests SET OF OCTET STRING }`, inside an OCTET STRING).
package struct AndroidApplicationID: Hashable, Sendable {
    /// Package names (several when apps share a user id).
    package var packageNames: [String]
    /// SHA-256 of each certificate the app is signed with.
    package var signatureDigests: [[UInt8]]

    /// An application id from its parts.
    package init(packageNames: [String], signatureDigests: [[UInt8]]) {
        self.packageNames = packageNames
        self.signatureDigests = signatureDigests
    }

    init(derEncoded bytes: ArraySlice<UInt8>) throws {
        let root = try DER.parse(bytes)
        guard case .constructed(let fields) = root.content, root.identifier == .sequence else {
            throw AndroidKeyDescriptionError("the application id is not a SEQUENCE")
        }
        let items = Array(fields)
        guard items.count == 2, case .constructed(let packages) = items[0].content, case .constructed(let digests) = items[1].content else {
            throw AndroidKeyDescriptionError("the application id is not two SETs")
        }
        packageNames = []
        for package in packages {
            guard case .constructed(let parts) = package.content, let name = Array(parts).first else {
                throw AndroidKeyDescriptionError("a package info is not a SEQUENCE")
            }
            packageNames.append(String(decoding: try ASN1OctetString(derEncoded: name).bytes, as: UTF8.self))
        }
        signatureDigests = []
        for digest in digests { signatureDigests.append(Array(try ASN1OctetString(derEncoded: digest).bytes)) }
    }
}
