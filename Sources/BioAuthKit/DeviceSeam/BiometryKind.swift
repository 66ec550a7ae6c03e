/// The biometric sensor a device has (`LABiometryType`).
public enum BiometryKind: String, Hashable, Sendable, CaseIterable {
    /// No biometric sensor (or none the app may use).
    case none
    /// Touch ID.
    case touchID
    /// Face ID.
    case faceID
    /// Optic ID (Apple Vision Pro).
    case opticID
}
