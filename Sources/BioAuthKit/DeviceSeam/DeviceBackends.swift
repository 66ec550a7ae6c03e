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

    /// Bundles the backends.
    @_spi(DeviceSeam) public init(
        keychain: any KeychainBackend,
        secureKeys: any SecureKeyBackend,
        localAuthentication: any LocalAuthenticationBackend,
        appAttest: (any AppAttestBackend)? = nil
    ) {
        self.keychain = keychain
        self.secureKeys = secureKeys
        self.localAuthentication = localAuthentication
        self.appAttest = appAttest
    }
}
