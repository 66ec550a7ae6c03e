/// A raw `DCError.Code` value as DeviceCheck reports it (DCError.h, iOS 16.5 SDK; domain
/// `DCErrorDomain`).
///
/// Backends hand these back untouched; BioAuthKit decides what each means for a registration.
/// https://developer.apple.com/documentation/devicecheck/dcerror-swift.struct
@_spi(DeviceSeam) public struct DCErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `DCError.Code` raw value.
    public var rawValue: Int

    /// Wraps a `DCError.Code` raw value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `DCError.unknownSystemFailure` (0): a failure on the device.
    public static let unknownSystemFailure = DCErrorCode(rawValue: 0)
    /// `DCError.featureUnsupported` (1): App Attest is not available here.
    public static let featureUnsupported = DCErrorCode(rawValue: 1)
    /// `DCError.invalidInput` (2): an argument was malformed.
    public static let invalidInput = DCErrorCode(rawValue: 2)
    /// `DCError.invalidKey` (3): the key was already attested (for `attestKey`), was never
    /// attested (for `generateAssertion`), or the App Attest service rejects it.
    public static let invalidKey = DCErrorCode(rawValue: 3)
    /// `DCError.serverUnavailable` (4): Apple's App Attest server could not be reached; try again
    /// later with the same key.
    public static let serverUnavailable = DCErrorCode(rawValue: 4)

    /// The number, for logs.
    public var description: String { "DCError \(rawValue)" }
}
