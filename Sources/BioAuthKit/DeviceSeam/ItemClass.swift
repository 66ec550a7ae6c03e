/// The `kSecClass` of a keychain query.
@_spi(DeviceSeam) public enum ItemClass: String, Hashable, Sendable {
    /// `kSecClassGenericPassword`: a secret addressed by service and account.
    case genericPassword
    /// `kSecClassKey`: a private key addressed by its application tag (service + account).
    case key
}
