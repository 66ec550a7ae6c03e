/// One authentication that several reads and signatures share, so that one biometric match
/// unlocks them all (an `LAContext` underneath). Make one with ``BiometricVault/makeContext()``.
public struct SharedAuthentication: Sendable {
    /// The platform context.
    @_spi(DeviceSeam) public let context: any AuthenticationContext

    /// Wraps a platform context.
    @_spi(DeviceSeam) public init(_ context: any AuthenticationContext) {
        self.context = context
    }
}
