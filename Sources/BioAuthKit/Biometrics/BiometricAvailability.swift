/// What this device offers for biometric sign-in now, read without a prompt
/// (``BioAuthClient/biometricAvailability()``, ``DeviceKeyStore/availability(algorithm:policy:)``):
/// the sensor, for the button's label, and whether sign-in can be turned on, or why not, for a hint.
public struct BiometricAvailability: Hashable, Sendable {
    /// Why biometric sign-in cannot be turned on now. A struct over a name, so that later
    /// versions can add reasons without breaking an app's `switch` (compare with the static members).
    public struct Obstacle: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, as the static member's (`notEnrolled`).
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// No biometric sensor the app may use.
        public static let noBiometry = Obstacle("noBiometry")
        /// A sensor, but no face or finger enrolled: "set up Face ID in Settings".
        public static let notEnrolled = Obstacle("notEnrolled")
        /// Too many failed matches: the device passcode unlocks biometry again.
        public static let lockedOut = Obstacle("lockedOut")
        /// No device passcode: protected keys cannot exist without one.
        public static let noPasscode = Obstacle("noPasscode")
        /// No Secure Enclave (the Xcode Simulator, a Mac without one): the default ES256 key
        /// cannot be made here.
        public static let noSecureEnclave = Obstacle("noSecureEnclave")
        /// The app lacks its keychain entitlement: a signing or build problem.
        public static let missingEntitlement = Obstacle("missingEntitlement")

        /// The name.
        public var description: String { name }

        /// What turning sign-in on would fail with.
        var error: BioAuthError {
            switch self {
            case .notEnrolled: .biometryNotEnrolled
            case .lockedOut: .biometryLockout
            case .noPasscode: .passcodeNotSet
            case .noSecureEnclave: .secureEnclaveUnavailable
            case .missingEntitlement: .missingEntitlement
            default: .biometryNotAvailable
            }
        }
    }

    /// The sensor: Face ID, Touch ID, Optic ID, or none.
    public let biometry: BiometryKind
    /// Why biometric sign-in cannot be turned on now; `nil` when it can.
    public let obstacle: Obstacle?

    /// Whether biometric sign-in can be turned on now.
    public var canEnable: Bool { obstacle == nil }

    /// A reading: the sensor, and what stands in the way, if anything.
    public init(biometry: BiometryKind, obstacle: Obstacle?) {
        self.biometry = biometry
        self.obstacle = obstacle
    }
}
