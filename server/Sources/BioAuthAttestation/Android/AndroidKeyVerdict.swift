import BioAuthWebAuthn

/// What a verified Android key attestation showed, for the registration's record.
package struct AndroidKeyVerdict: Hashable, Sendable {
    /// TEE or StrongBox.
    package var securityLevel: AndroidKeyDescription.SecurityLevel
    /// The attestation's version (Keymaster 1–4, KeyMint 100 and on).
    package var attestationVersion: Int
    /// What verified boot found, and whether the bootloader is locked.
    package var rootOfTrust: AndroidRootOfTrust
    /// The allowed app that made the key.
    package var packageName: String
    /// The security patch level, as `YYYYMM`, when attested.
    package var osPatchLevel: Int?
}
