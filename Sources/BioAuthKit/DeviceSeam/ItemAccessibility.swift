/// When a keychain item can be read at all (`kSecAttrAccessible…`), before any access control.
@_spi(DeviceSeam) public enum ItemAccessibility: String, Hashable, Sendable, CaseIterable {
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: refused without a passcode; every such
    /// item is deleted when the passcode is removed; never leaves the device. The default for secrets.
    case whenPasscodeSetThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
    case whenUnlockedThisDeviceOnly
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: for non-secret bookkeeping only.
    case afterFirstUnlockThisDeviceOnly
}
