import Foundation

/// Authenticator data (WebAuthn Level 3 §6.1), parsed strictly: 32 bytes of `rpIdHash`, the
/// flags, the big-endian signature counter, then exactly what the AT and ED flags announce
/// (attested credential data, an extensions map), and nothing after.
package struct AuthenticatorData: Sendable {
    /// The flags byte (§6.1, "flags").
    package struct Flags: OptionSet, Hashable, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// UP: the user was present (touched, or interacted with the prompt).
        package static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified (biometrics, PIN).
        package static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced; a multi-device credential).
        package static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        package static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        package static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: an extensions map follows.
        package static let extensionData = Flags(rawValue: 0x80)
    }

    /// SHA-256 of the RP id the authenticator scoped the credential to.
    package let rpIDHash: [UInt8]
    /// The flags.
    package let flags: Flags
    /// The signature counter (0 when the authenticator keeps none).
    package let signCount: UInt32
    /// The new credential, present exactly when AT is set (registration).
    package let attestedCredential: AttestedCredentialData?
    /// Authenticator extension outputs, present exactly when ED is set.
    package let extensions: CBORValue?
    /// The bytes as received: what the assertion signature and attestation statements cover.
    package let bytes: [UInt8]

    /// Parses authenticator data.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw WebAuthnError(.invalidAuthenticatorData, "\(bytes.count) bytes, fewer than 37") }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            let (credential, end) = try AttestedCredentialData.parse(bytes, from: offset)
            attestedCredential = credential
            offset = end
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard offset < bytes.count else { throw WebAuthnError(.invalidAuthenticatorData, "ED is set but no extensions follow") }
            let value: CBORValue
            let end: Int
            do {
                (value, end) = try CBORDecoder().decodePrefix(Array(bytes[offset...]))
            } catch {
                throw WebAuthnError(.invalidAuthenticatorData, "extensions: \(error)")
            }
            guard case .map = value else { throw WebAuthnError(.invalidAuthenticatorData, "extensions are not a map") }
            extensions = value
            offset += end
        } else {
            extensions = nil
        }
        guard offset == bytes.count else { throw WebAuthnError(.invalidAuthenticatorData, "\(bytes.count - offset) bytes after the last field") }
    }
}

/// The credential an authenticator created (§6.5.1): its AAGUID, id and public key.
package struct AttestedCredentialData: Sendable {
    /// The authenticator model's AAGUID (all zero when the authenticator does not say).
    package let aaguid: UUID
    /// The credential id, 1 to 1023 bytes.
    package let credentialID: [UInt8]
    /// The credential public key.
    package let publicKey: COSEKey
    /// The public key's COSE bytes as the authenticator encoded them: what is stored, and
    /// parsed again for every assertion.
    package let publicKeyBytes: [UInt8]

    /// The longest credential id a relying party accepts (§7.1 step 26).
    package static let maxCredentialIDLength = 1023

    static func parse(_ bytes: [UInt8], from start: Int) throws(WebAuthnError) -> (AttestedCredentialData, end: Int) {
        guard bytes.count - start >= 18 else { throw WebAuthnError(.invalidAuthenticatorData, "attested credential data truncated") }
        let aaguidBytes = Array(bytes[start..<start + 16])
        let length = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        let idStart = start + 18
        guard length >= 1, length <= maxCredentialIDLength else { throw WebAuthnError(.invalidCredentialID, "credential id of \(length) bytes") }
        guard bytes.count - idStart > length else { throw WebAuthnError(.invalidAuthenticatorData, "credential id or key truncated") }
        let keyStart = idStart + length
        let key: CBORValue
        let keyLength: Int
        do {
            (key, keyLength) = try CBORDecoder().decodePrefix(Array(bytes[keyStart...]))
        } catch {
            throw WebAuthnError(.invalidCredentialPublicKey, "\(error)")
        }
        let credential = AttestedCredentialData(
            aaguid: UUID(
                uuid: (
                    aaguidBytes[0], aaguidBytes[1], aaguidBytes[2], aaguidBytes[3], aaguidBytes[4], aaguidBytes[5],
                    aaguidBytes[6], aaguidBytes[7], aaguidBytes[8], aaguidBytes[9], aaguidBytes[10], aaguidBytes[11],
                    aaguidBytes[12], aaguidBytes[13], aaguidBytes[14], aaguidBytes[15]
                )
            ),
            credentialID: Array(bytes[idStart..<keyStart]),
            publicKey: try COSEKey(key),
            publicKeyBytes: Array(bytes[keyStart..<keyStart + keyLength])
        )
        return (credential, keyStart + keyLength)
    }
}
