import BioAuthKit

extension SimulatedDevice: LocalAuthenticationBackend {
    /// `LAContext()`.
    public func makeContext() -> any AuthenticationContext {
        SimulatedContext(device: self)
    }
}
