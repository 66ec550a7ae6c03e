import BioAuthProtocol

/// Every way a BioAuthKit operation can fail, named so that an app can act on it without ever
/// seeing an `OSStatus` or an `LAError`.
///
/// | case | what the app should do |
/// |---|---|
/// | ``userCanceled`` | nothing; offer the button again |
/// | ``biometryLockout`` | ask for the device passcode (or offer PIN / password sign-in) |
/// | ``biometryNotEnrolled``, ``biometryNotAvailable`` | hide biometric sign-in; offer password |
/// | ``passcodeNotSet`` | explain that a device passcode is required; protected items are gone |
/// | ``biometryChanged`` | password sign-in; the client then revokes the stale registration |
/// | ``itemNotFound`` | the secret or key does not exist (never enabled, or deleted) |
/// | ``authenticationFailed`` | the face/finger did not match; try again |
/// | ``interactionNotAllowed`` | retry when the app is in the foreground |
/// | ``missingEntitlement`` | a build problem: the app lacks its keychain entitlement |
/// | ``server(_:)`` | act on the contract's ``ErrorCode`` |
/// | ``transport(_:)`` | no answer from the server; retry later |
public enum BioAuthError: Error, Equatable, Sendable {
    /// The user dismissed the prompt (or the system did).
    case userCanceled
    /// Too many failed matches; biometry is locked until the device passcode is entered.
    case biometryLockout
    /// The device has a sensor but no face or finger enrolled.
    case biometryNotEnrolled
    /// The device has no usable biometric sensor.
    case biometryNotAvailable
    /// The device has no passcode; biometry-protected items cannot exist.
    case passcodeNotSet
    /// The enrolled biometry changed since the item or key was created (a finger or face was
    /// added or removed), so it is gone for good: sign in with the password again. Decided by
    /// comparing the domain state with the baseline recorded at enrollment, never guessed.
    case biometryChanged
    /// The item or key does not exist.
    case itemNotFound
    /// The user could not be authenticated (no match).
    case authenticationFailed
    /// A prompt was needed but the operation was not allowed to show one.
    case interactionNotAllowed
    /// The app is missing its keychain entitlement (a signing or build problem).
    case missingEntitlement
    /// The call needs a signed-in session and there is none.
    case notSignedIn
    /// The server answered with one of the contract's errors.
    case server(ServerRejection)
    /// The server could not be reached, or answered outside the contract.
    case transport(String)
    /// The platform failed in a way the contract does not name (the status, for logs).
    case systemFailure(String)

    /// The contract error code, when the server refused.
    public var serverCode: ErrorCode? {
        if case .server(let rejection) = self { return rejection.code }
        return nil
    }
}
