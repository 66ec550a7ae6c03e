#if canImport(Security) && canImport(LocalAuthentication)
extension DeviceBackends {
    /// The real Keychain, Secure Enclave and LocalAuthentication of this device.
    public static var apple: DeviceBackends {
        DeviceBackends(keychain: AppleKeychain(), secureKeys: AppleSecureEnclave(), localAuthentication: AppleLocalAuthentication())
    }
}
#endif
