@_spi(DeviceSeam) import BioAuthKit

/// A reference to a key inside the simulated Secure Enclave, bound to the context it was fetched
/// with; it holds no key material.
struct SimulatedKeyHandle: SecureKeyHandle {
    let id: ItemID
    let context: SimulatedContext?
    let prompt: String?
    /// The context may not show UI (`LAContext.interactionNotAllowed`, set through the query).
    let interactionNotAllowed: Bool
}
