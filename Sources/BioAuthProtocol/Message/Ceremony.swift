/// The two ceremonies a device key signs for; each has its own byte in the signed message, so a
/// signature made for one can never complete the other.
public enum Ceremony: UInt8, Sendable, CaseIterable, Codable {
    /// Proving possession of a new key while registering it.
    case registration = 0x01
    /// Signing in with a registered key.
    case authentication = 0x02
}
