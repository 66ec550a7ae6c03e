/// What the simulated user does at a prompt, answer by answer: a face or finger that does not
/// match is one failed attempt, and the prompt stays up for the next answer until it gives up
/// (``SimulatedDevice/setAttemptsPerPrompt(_:)``).
public enum ScriptedAnswer: Sendable, Equatable {
    /// Presents the face or finger of `identity` (a match only if it is enrolled; else a failed attempt).
    case present(_ identity: String)
    /// Presents a face or finger that is not enrolled (always a failed attempt).
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
