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

    /// Bundles three backends.
    @_spi(DeviceSeam) public init(
        keychain: any KeychainBackend,
        secureKeys: any SecureKeyBackend,
        localAuthentication: any LocalAuthenticationBackend
    ) {
        self.keychain = keychain
        self.secureKeys = secureKeys
        self.localAuthentication = localAuthentication
    }
}
