import BioAuthProtocol

/// Every way a BioAuthKit operation can fail, named so that an app can act on it without ever
/// seeing an `OSStatus` or an `LAError`.
///
/// A struct over a ``Code``, so new failures can be added without breaking an app's `switch`:
/// compare with the static members (`case .userCanceled:` in a `switch`, or `error == .biometryChanged`),
/// and read ``serverCode`` or ``rejection`` for the server's answers.
///
/// | error | what the app should do |
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
/// | ``secureEnclaveUnavailable`` | hide biometric sign-in (the Xcode Simulator or a Mac without one); offer password |
/// | ``notSignedIn`` | show the sign-in screen |
/// | ``confirmationRefused(_:)`` (code ``Code/confirmationRefused``) | the details break ``ConfirmationRules`` or are of an unknown kind: show no approve button; decline |
/// | ``server(_:)`` (code ``Code/server``) | act on the contract's ``ErrorCode`` in ``serverCode`` |
/// | ``transport(_:)`` (code ``Code/transport``) | no answer from the server; retry later |
/// | ``systemFailure(_:)`` (code ``Code/systemFailure``) | log ``detail``; offer the password |
public struct BioAuthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. More codes may be added in later versions.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as in ``BioAuthError``'s static members (`userCanceled`).
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// See ``BioAuthError/userCanceled``.
        public static let userCanceled = Code("userCanceled")
        /// See ``BioAuthError/biometryLockout``.
        public static let biometryLockout = Code("biometryLockout")
        /// See ``BioAuthError/biometryNotEnrolled``.
        public static let biometryNotEnrolled = Code("biometryNotEnrolled")
        /// See ``BioAuthError/biometryNotAvailable``.
        public static let biometryNotAvailable = Code("biometryNotAvailable")
        /// See ``BioAuthError/passcodeNotSet``.
        public static let passcodeNotSet = Code("passcodeNotSet")
        /// See ``BioAuthError/biometryChanged``.
        public static let biometryChanged = Code("biometryChanged")
        /// See ``BioAuthError/itemNotFound``.
        public static let itemNotFound = Code("itemNotFound")
        /// See ``BioAuthError/authenticationFailed``.
        public static let authenticationFailed = Code("authenticationFailed")
        /// See ``BioAuthError/interactionNotAllowed``.
        public static let interactionNotAllowed = Code("interactionNotAllowed")
        /// See ``BioAuthError/missingEntitlement``.
        public static let missingEntitlement = Code("missingEntitlement")
        /// See ``BioAuthError/secureEnclaveUnavailable``.
        public static let secureEnclaveUnavailable = Code("secureEnclaveUnavailable")
        /// See ``BioAuthError/notSignedIn``.
        public static let notSignedIn = Code("notSignedIn")
        /// This device refuses to show or sign a confirmation's details (``BioAuthError/confirmationProblem``).
        public static let confirmationRefused = Code("confirmationRefused")
        /// The server answered with one of the contract's errors (``BioAuthError/rejection``).
        public static let server = Code("server")
        /// The server could not be reached, or answered outside the contract.
        public static let transport = Code("transport")
        /// The platform failed in a way the contract does not name.
        public static let systemFailure = Code("systemFailure")

        /// The name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The server's answer, for ``Code/server``.
    public let rejection: ServerRejection?
    /// Words for logs, for ``Code/transport`` and ``Code/systemFailure`` (never a secret).
    public let detail: String?
    /// For ``Code/confirmationRefused``: the rule the details broke, and the field.
    public let confirmationProblem: ConfirmationRules.Problem?

    private init(_ code: Code, rejection: ServerRejection? = nil, detail: String? = nil, confirmationProblem: ConfirmationRules.Problem? = nil) {
        self.code = code
        self.rejection = rejection
        self.detail = detail
        self.confirmationProblem = confirmationProblem
    }

    /// The user dismissed the prompt (or the system did).
    public static let userCanceled = BioAuthError(.userCanceled)
    /// Too many failed matches; biometry is locked until the device passcode is entered.
    public static let biometryLockout = BioAuthError(.biometryLockout)
    /// The device has a sensor but no face or finger enrolled.
    public static let biometryNotEnrolled = BioAuthError(.biometryNotEnrolled)
    /// The device has no usable biometric sensor.
    public static let biometryNotAvailable = BioAuthError(.biometryNotAvailable)
    /// The device has no passcode; biometry-protected items cannot exist.
    public static let passcodeNotSet = BioAuthError(.passcodeNotSet)
    /// The enrolled biometry changed since the item or key was created (a finger or face was
    /// added or removed), so it is gone for good: sign in with the password again. Decided by
    /// comparing the domain state with the baseline recorded at enrollment, never guessed.
    public static let biometryChanged = BioAuthError(.biometryChanged)
    /// The item or key does not exist.
    public static let itemNotFound = BioAuthError(.itemNotFound)
    /// The user could not be authenticated (no match).
    public static let authenticationFailed = BioAuthError(.authenticationFailed)
    /// A prompt was needed but the operation was not allowed to show one.
    public static let interactionNotAllowed = BioAuthError(.interactionNotAllowed)
    /// The app is missing its keychain entitlement (a signing or build problem).
    public static let missingEntitlement = BioAuthError(.missingEntitlement)
    /// The device has no Secure Enclave (the Xcode Simulator, a Mac without one), so no ES256
    /// device key can be made; asked of the platform before a key is made.
    public static let secureEnclaveUnavailable = BioAuthError(.secureEnclaveUnavailable)
    /// The call needs a signed-in session and there is none.
    public static let notSignedIn = BioAuthError(.notSignedIn)

    /// The server answered with one of the contract's errors.
    public static func server(_ rejection: ServerRejection) -> BioAuthError {
        BioAuthError(.server, rejection: rejection)
    }

    /// This device refuses to show or sign a confirmation's details: they break
    /// ``ConfirmationRules`` (`problem` says which rule, and the field), or their kind is one this
    /// version does not know. Decided from the details alone, before any prompt or request.
    public static func confirmationRefused(_ problem: ConfirmationRules.Problem) -> BioAuthError {
        BioAuthError(.confirmationRefused, detail: "\(problem.code.rawValue) \(problem.field)", confirmationProblem: problem)
    }

    /// The server could not be reached, or answered outside the contract.
    public static func transport(_ detail: String) -> BioAuthError {
        BioAuthError(.transport, detail: detail)
    }

    /// The platform failed in a way the contract does not name (the status, for logs).
    public static func systemFailure(_ detail: String) -> BioAuthError {
        BioAuthError(.systemFailure, detail: detail)
    }

    /// The contract error code, when the server refused.
    public var serverCode: ErrorCode? {
        rejection?.code
    }

    /// Short words for logs: `biometryChanged`, `server 401 challenge_invalid`, `transport: …`.
    public var description: String {
        if let rejection {
            return "server \(rejection.status) \(rejection.code.rawValue)" + (rejection.retryAfterSeconds.map { ", Retry-After \($0) s" } ?? "")
        }
        return detail.map { "\(code.name): \($0)" } ?? code.name
    }
}
