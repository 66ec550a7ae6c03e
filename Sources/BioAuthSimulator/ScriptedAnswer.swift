/// What the simulated user does when the next prompt appears.
public enum ScriptedAnswer: Sendable, Equatable {
    /// Presents the face or finger of `identity` (a match only if it is enrolled).
    case present(_ identity: String)
    /// Presents a face or finger that is not enrolled (always a failed match).
    case presentUnenrolled
    /// Taps Cancel.
    case cancel
    /// Leaves the prompt up, answering nothing: it closes only when the app invalidates the
    /// prompt's context, and the call then fails with `LAErrorAppCancel` ("Invalidation terminates
    /// any existing policy evaluation and the respective call will fail with LAErrorAppCancel",
    /// LAContext.h, `invalidate`). The call blocks its thread meanwhile, as the platform's does. A
    /// keychain or Secure Enclave prompt may instead stay up after the invalidation
    /// (``SimulatedDevice/setInvalidateClosesKeychainPrompts(_:)``).
    case leaveUp
    /// Enters this passcode (accepted only where the item allows the passcode; a correct
    /// passcode always ends a biometry lockout).
    case passcode(String)
}
