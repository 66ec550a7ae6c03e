@_spi(DeviceSeam) import BioAuthKit

extension SimulatedDevice {
    /// `LAContext()`.
    @_spi(DeviceSeam) public func makeContext() -> any AuthenticationContext {
        SimulatedContext(device: self)
    }
}
