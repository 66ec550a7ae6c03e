@_spi(DeviceSeam) import BioAuthKit

/// A reference to a key inside the simulated Secure Enclave, bound to the context it was fetched
/// with; it holds no key material.
struct SimulatedKeyHandle: SecureKeyHandle {
    let id: ItemID
    let context: SimulatedContext?
    let prompt: String?
    /// The context may not show UI (`LAContext.interactionNotAllowed`, set through the query).
    let interactionNotAllowed: Bool

    /// The handle `query` returns for the item `id`: its context, prompt and UI rule.
    init(id: ItemID, query: KeychainQuery) {
        self.id = id
        self.context = query.authenticationContext as? SimulatedContext
        self.prompt = query.operationPrompt
        self.interactionNotAllowed = query.interactionNotAllowed
    }
}
