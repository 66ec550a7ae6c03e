/// A raw `LAError.Code` value as LocalAuthentication reports it.
///
/// Backends hand these back untouched; BioAuthKit maps them to ``BioAuthError``.
@_spi(DeviceSeam) public struct LAErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `LAError.Code` raw value.
    public var rawValue: Int

    /// Wraps an `LAError.Code` raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `LAError.authenticationFailed` (-1): the presented biometry or passcode did not match.
    public static let authenticationFailed = LAErrorCode(rawValue: -1)
    /// `LAError.userCancel` (-2).
    public static let userCancel = LAErrorCode(rawValue: -2)
    /// `LAError.userFallback` (-3): the user chose the fallback button.
    public static let userFallback = LAErrorCode(rawValue: -3)
    /// `LAError.systemCancel` (-4): the system dismissed the prompt (e.g. app went to background).
    public static let systemCancel = LAErrorCode(rawValue: -4)
    /// `LAError.passcodeNotSet` (-5).
    public static let passcodeNotSet = LAErrorCode(rawValue: -5)
    /// `LAError.biometryNotAvailable` (-6): no sensor, or the app may not use it.
    public static let biometryNotAvailable = LAErrorCode(rawValue: -6)
    /// `LAError.biometryNotEnrolled` (-7).
    public static let biometryNotEnrolled = LAErrorCode(rawValue: -7)
    /// `LAError.biometryLockout` (-8): too many failed matches; the passcode unlocks it.
    public static let biometryLockout = LAErrorCode(rawValue: -8)
    /// `LAError.appCancel` (-9).
    public static let appCancel = LAErrorCode(rawValue: -9)
    /// `LAError.invalidContext` (-10): the context was invalidated.
    public static let invalidContext = LAErrorCode(rawValue: -10)
    /// `LAError.notInteractive` (-1004): a prompt was needed but interaction is not allowed.
    public static let notInteractive = LAErrorCode(rawValue: -1004)

    /// The number, for logs.
    public var description: String { "LAError \(rawValue)" }
}
