/// How the client proves a recent sign-in when the server asks for one before a credential
/// change (`403 reauthentication_required`: registering a device key, setting a PIN, changing the
/// password). The client re-authenticates and retries once; a fresh session needs neither.
public enum Reauthentication: Sendable {
    /// Sign a fresh challenge with this device's biometric key (one prompt with this text).
    case biometrics(prompt: String)
    /// Ask the app for the password (return `nil` when the user declines).
    case password(@Sendable () async -> String?)
    /// Biometrics when biometric sign-in is enabled on this device, else the password.
    case biometricsOrPassword(prompt: String, password: @Sendable () async -> String?)
}
