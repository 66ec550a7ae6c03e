/// The device services BioAuthKit runs on: the real ones on Apple platforms
/// (``DeviceBackends/apple`` where available), a simulated device in tests
/// (`SimulatedDevice().backends` from BioAuthSimulator).
public struct DeviceBackends: Sendable {
    /// Keychain items.
    @_spi(DeviceSeam) public var keychain: any KeychainBackend
    /// Secure Enclave keys.
    @_spi(DeviceSeam) public var secureKeys: any SecureKeyBackend
    /// LocalAuthentication contexts.
    @_spi(DeviceSeam) public var localAuthentication: any LocalAuthenticationBackend
    /// App Attest (DeviceCheck), where the platform has it; `nil` where it does not.
    @_spi(DeviceSeam) public var appAttest: (any AppAttestBackend)?
    /// The clock the client's own deadlines are kept on (``DeviceClock``).
    @_spi(DeviceSeam) public var clock: any DeviceClock

    /// Bundles the backends; `clock` is the system's monotonic clock unless given.
    @_spi(DeviceSeam) public init(
        keychain: any KeychainBackend,
        secureKeys: any SecureKeyBackend,
        localAuthentication: any LocalAuthenticationBackend,
        appAttest: (any AppAttestBackend)? = nil,
        clock: (any DeviceClock)? = nil
    ) {
        self.keychain = keychain
        self.secureKeys = secureKeys
        self.localAuthentication = localAuthentication
        self.appAttest = appAttest
        self.clock = clock ?? MonotonicClock()
    }
}
