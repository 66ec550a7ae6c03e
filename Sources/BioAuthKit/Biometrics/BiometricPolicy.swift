/// What a protected secret or key demands before the secure hardware releases it.
///
/// The default, ``currentBiometrics``, is the strictest: only the faces or fingers enrolled
/// now, invalidated by any enrollment change. The others are opt-in.
public enum BiometricPolicy: String, Codable, Hashable, Sendable, CaseIterable {
    /// `.biometryCurrentSet`: a match by the biometry enrolled when the item was created; any
    /// enrollment change destroys the item (reported as ``BioAuthError/biometryChanged``). Default.
    case currentBiometrics
    /// `.biometryAny` (opt-in): a match by any enrolled biometry; survives enrollment changes, so
    /// someone who can add their own finger to the device can use the item.
    case anyBiometrics
    /// `.userPresence` (opt-in): biometry, or the device passcode as fallback; whoever knows the
    /// passcode can use the item.
    case biometricsOrPasscode

    /// The access-control flags the item or key is created with.
    var accessControl: AccessControlFlags {
        switch self {
        case .currentBiometrics: .biometryCurrentSet
        case .anyBiometrics: .biometryAny
        case .biometricsOrPasscode: .userPresence
        }
    }

    /// The LocalAuthentication policy that tells whether the item can be used at all.
    var localAuthenticationPolicy: AuthenticationPolicy {
        switch self {
        case .currentBiometrics, .anyBiometrics: .deviceOwnerAuthenticationWithBiometrics
        case .biometricsOrPasscode: .deviceOwnerAuthentication
        }
    }

    /// The accessibility every protected item and key gets: never without a passcode, never
    /// leaving the device (the stricter of the two choices in the source articles).
    static let accessibility = ItemAccessibility.whenPasscodeSetThisDeviceOnly
}
