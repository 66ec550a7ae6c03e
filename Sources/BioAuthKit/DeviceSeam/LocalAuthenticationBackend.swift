/// Makes LocalAuthentication contexts (`LAContext()`).
@_spi(DeviceSeam) public protocol LocalAuthenticationBackend: Sendable {
    /// A new, unevaluated context.
    func makeContext() -> any AuthenticationContext
}
