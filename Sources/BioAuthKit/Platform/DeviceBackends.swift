/// The device services BioAuthKit runs on: the real ones on Apple platforms
/// (``DeviceBackends/apple`` where available), a simulated device in tests.
public struct DeviceBackends: Sendable {
    /// Keychain items.
    public var keychain: any KeychainBackend
    /// Secure Enclave keys.
    public var secureKeys: any SecureKeyBackend
    /// LocalAuthentication contexts.
    public var localAuthentication: any LocalAuthenticationBackend

    /// Bundles three backends.
    public init(keychain: any KeychainBackend, secureKeys: any SecureKeyBackend, localAuthentication: any LocalAuthenticationBackend) {
        self.keychain = keychain
        self.secureKeys = secureKeys
        self.localAuthentication = localAuthentication
    }
}
