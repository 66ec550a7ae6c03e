/// Whether a device key can still sign, as far as can be told without a prompt
/// (``DeviceKeyStore/usability(ofKeyNamed:)``).
enum KeyUsability: Equatable, Sendable {
    /// It can: signing will prompt.
    case usable
    /// It cannot, and why.
    case lost(LocalKeyLoss)
}
