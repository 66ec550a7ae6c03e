/// The ceremonies a device key signs for; each has its own byte in the signed message, so a
/// signature made for one can never complete another. (`0x03` is ``KeyAttestationMessage``'s,
/// which App Attest signs, never a device key.)
public enum Ceremony: UInt8, Sendable, CaseIterable, Codable {
    /// Proving possession of a new key while registering it.
    case registration = 0x01
    /// Signing in with a registered key.
    case authentication = 0x02
    /// Approving a confirmation (``ConfirmationMessage``): a payment or an action, bound to its
    /// details' hash.
    case confirmation = 0x04
}
