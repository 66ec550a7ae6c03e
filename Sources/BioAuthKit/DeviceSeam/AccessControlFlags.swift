/// The access-control constraints of a keychain item or key, bit for bit
/// `SecAccessControlCreateFlags`.
@_spi(DeviceSeam) public struct AccessControlFlags: OptionSet, Hashable, Sendable {
    /// The `SecAccessControlCreateFlags` raw value.
    public var rawValue: UInt

    /// Wraps a `SecAccessControlCreateFlags` raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// `.userPresence`: any enrolled biometry, or the device passcode.
    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    /// `.biometryAny`: any enrolled biometry, surviving enrollment changes.
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    /// `.biometryCurrentSet`: only the biometry enrolled now; invalidated by any enrollment change.
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// `.devicePasscode`: the device passcode.
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// `.or`: any one of the listed constraints suffices.
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// `.and`: all listed constraints are required.
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// `.privateKeyUsage`: required for Secure Enclave private keys.
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)

    /// Whether the flags demand a biometric match (with or without a passcode alternative).
    public var involvesBiometry: Bool {
        !isDisjoint(with: [.biometryAny, .biometryCurrentSet, .userPresence])
    }

    /// Whether the device passcode can satisfy the flags.
    public var allowsPasscode: Bool {
        contains(.userPresence) || contains(.devicePasscode)
    }
}
