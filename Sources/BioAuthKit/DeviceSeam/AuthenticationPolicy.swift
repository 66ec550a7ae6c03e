/// The `LAPolicy` a context evaluates.
@_spi(DeviceSeam) public enum AuthenticationPolicy: Int, Hashable, Sendable {
    /// `.deviceOwnerAuthenticationWithBiometrics`: biometry only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// `.deviceOwnerAuthentication`: biometry, or the passcode.
    case deviceOwnerAuthentication = 2
}
