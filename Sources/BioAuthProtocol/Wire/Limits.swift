/// Limits the contract fixes; clients can check input before sending it.
public enum ProtocolLimits {
    /// Username length in Unicode scalars after NFKC normalisation.
    public static let usernameLength = 3...64
    /// Password length in Unicode scalars.
    public static let passwordLength = 8...256
    /// PIN length in ASCII digits.
    public static let pinLength = 4...12
    /// Allowed session durations in minutes.
    public static let sessionDurationMinutes = 5...43_200
    /// The default session duration in minutes.
    public static let defaultSessionDurationMinutes = 60
    /// Challenge size in bytes.
    public static let challengeByteCount = 32
    /// Largest accepted request body in bytes.
    public static let maxBodyBytes = 64 * 1024
    /// Longest registration label in Unicode scalars.
    public static let labelLength = 0...64
}
