import SwiftASN1

/// The Android Keystore's key description: the extension (OID 1.3.6.1.4.1.11129.2.1.17) of an
/// attestation certificate that says how the secure hardware made the certified key.
///
/// The schema is AOSP's `KeyCreationResult.aidl` ("Key and ID attestation",
/// source.android.com/docs/security/features/keystore/attestation#schema):
///
/// ```
/// KeyDescription ::= SEQUENCE {
///     attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///     keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel,
///     attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///     softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }
/// ```
///
/// Parsing is strict DER but for a BOOLEAN's content, read as Google's verifier reads it (any
/// non-zero byte is true: ``AndroidRootOfTrust``); a field this server never reads is skipped, not
/// interpreted. The certificates around it stay strict DER.
package struct AndroidKeyDescription: Hashable, Sendable {
    /// 1.3.6.1.4.1.11129.2.1.17.
    package static let extensionID: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17]

    /// Where a key lives or an attestation was made (`SecurityLevel ::= ENUMERATED`).
    package enum SecurityLevel: Int, Hashable, Sendable {
        /// Android's own software keystore: nothing a rooted phone cannot read.
        case software = 0
        /// The trusted execution environment (TEE).
        case trustedEnvironment = 1
        /// A separate secure element (StrongBox).
        case strongBox = 2
    }

    /// 1–4 for Keymaster 2 to 4.1, 100, 200, 300, 400 (and on) for KeyMint.
    package var attestationVersion: Int
    /// What made the attestation.
    package var attestationSecurityLevel: SecurityLevel
    /// The Keymaster or KeyMint version.
    package var keyMintVersion: Int
    /// Where the key lives.
    package var keyMintSecurityLevel: SecurityLevel
    /// The challenge the app passed to `setAttestationChallenge`.
    package var challenge: [UInt8]
    /// Empty unless the app asked for a unique id.
    package var uniqueID: [UInt8]
    /// What Android's keystore daemon enforces (the operating system, not the secure hardware).
    package var softwareEnforced: AndroidAuthorizationList
    /// What the secure hardware enforces.
    package var hardwareEnforced: AndroidAuthorizationList

    /// A description from its parts (the simulators' certificates carry one).
    package init(
        attestationVersion: Int,
        attestationSecurityLevel: SecurityLevel,
        keyMintVersion: Int,
        keyMintSecurityLevel: SecurityLevel,
        challenge: [UInt8],
        uniqueID: [UInt8] = [],
        softwareEnforced: AndroidAuthorizationList,
        hardwareEnforced: AndroidAuthorizationList
    ) {
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keyMintVersion = keyMintVersion
        self.keyMintSecurityLevel = keyMintSecurityLevel
        self.challenge = challenge
        self.uniqueID = uniqueID
        self.softwareEnforced = softwareEnforced
        self.hardwareEnforced = hardwareEnforced
    }

    /// Parses the extension's value (the DER of the SEQUENCE).
    package init(derEncoded bytes: ArraySlice<UInt8>) throws(AndroidKeyDescriptionError) {
        do {
            let root = try DER.parse(bytes)
            guard case .constructed(let fields) = root.content, root.identifier == .sequence else {
                throw AndroidKeyDescriptionError("not a SEQUENCE")
            }
            let items = Array(fields)
            guard items.count == 8 else { throw AndroidKeyDescriptionError("\(items.count) fields, not 8") }
            attestationVersion = try Int(derEncoded: items[0])
            attestationSecurityLevel = try Self.securityLevel(items[1])
            keyMintVersion = try Int(derEncoded: items[2])
            keyMintSecurityLevel = try Self.securityLevel(items[3])
            challenge = Array(try ASN1OctetString(derEncoded: items[4]).bytes)
            uniqueID = Array(try ASN1OctetString(derEncoded: items[5]).bytes)
            softwareEnforced = try AndroidAuthorizationList(items[6])
            hardwareEnforced = try AndroidAuthorizationList(items[7])
        } catch let error as AndroidKeyDescriptionError {
            throw error
        } catch {
            throw AndroidKeyDescriptionError("\(error)")
        }
    }

    private static func securityLevel(_ node: ASN1Node) throws -> SecurityLevel {
        let value = try Int(derEncoded: node, withIdentifier: .enumerated)
        guard let level = SecurityLevel(rawValue: value) else { throw AndroidKeyDescriptionError("security level \(value)") }
        return level
    }
}

/// A key description that is not the schema's DER.
package struct AndroidKeyDescriptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong (never key material).
    package let description: String
    init(_ description: String) { self.description = description }
}
