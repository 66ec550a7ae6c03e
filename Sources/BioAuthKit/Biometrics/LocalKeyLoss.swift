/// Why the device no longer has the key of a registration.
public enum LocalKeyLoss: String, Codable, Sendable, Equatable {
    /// The enrolled biometry changed, which destroyed the `.biometryCurrentSet` key.
    case biometryChanged
    /// The key is gone (deleted, or removed with the device passcode).
    case keyMissing
}
