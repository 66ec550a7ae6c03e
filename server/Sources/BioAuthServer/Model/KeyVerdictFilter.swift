/// Which device keys an operator lists or revokes (`bioauth admin list-keys`, `revoke-keys`), by
/// the verdict on the hardware evidence they registered with (``KeyAttestationService``).
package enum KeyVerdictFilter: String, CaseIterable, Sendable {
    /// Evidence that verified.
    case verified
    /// No evidence, registered under `--key-attestation prefer`.
    case absent
    /// Evidence that did not verify, registered under `prefer`.
    case refused
    /// Registered under `--key-attestation none`: no evidence looked at.
    case none
    /// Every key but a verified one: what `require` would not have let register.
    case unverified
}
