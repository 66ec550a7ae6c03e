#if canImport(Security) && canImport(LocalAuthentication)
extension DeviceBackends {
    /// The real Keychain, Secure Enclave, LocalAuthentication and App Attest of this device.
    public static var apple: DeviceBackends {
        #if canImport(DeviceCheck) && (os(iOS) || os(macOS))
        let appAttest: (any AppAttestBackend)? = AppleAppAttest()
        #else
        let appAttest: (any AppAttestBackend)? = nil
        #endif
        return DeviceBackends(
            keychain: AppleKeychain(),
            secureKeys: AppleSecureEnclave(),
            localAuthentication: AppleLocalAuthentication(),
            appAttest: appAttest
        )
    }
}
#endif
