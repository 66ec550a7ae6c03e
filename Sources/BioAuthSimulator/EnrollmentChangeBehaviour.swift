@_spi(DeviceSeam) import BioAuthKit

/// How this device's `.biometryCurrentSet` items and keys answer after an enrollment change.
///
/// SecAccessControl.h (iOS 16.5 SDK), `kSecAccessControlBiometryCurrentSet`: "When fingers are
/// added or removed, the item is invalidated. When Face ID is re-enrolled this item is
/// invalidated." Apple does not say how an invalidated item answers: it may be gone, or its
/// reference may survive while every use fails, the failure may come in any of the three domains
/// a keychain or Secure Enclave call reports in (``KeychainStatus``), and a call that may not show
/// UI may hear the failure or, as from a sound item, "needs UI" (`errSecInteractionNotAllowed`,
/// LAContext.h, `interactionNotAllowed`). BioAuthKit must recognise each; the simulator plays
/// whichever a test picks.
@_spi(DeviceSeam) public enum EnrollmentChangeBehaviour: Sendable, Equatable {
    /// The items and keys are deleted: a lookup answers `errSecItemNotFound` (-25300).
    case deletesItems
    /// The items and keys stay (a lookup by reference succeeds, without a prompt), and every use
    /// (reading the data, signing, or a query that may not show UI) fails at once with `failure`,
    /// without a prompt.
    case invalidatesItems(failingWith: KeychainStatus)
    /// The items and keys stay; a use that may not show UI answers "needs UI" as a sound one does
    /// (`errSecInteractionNotAllowed`; a Secure Enclave signature `LAErrorNotInteractive`), and a
    /// use that may show UI prompts (unless its context is already authenticated) and then fails
    /// with `failure`, whatever the user answered, unless they canceled.
    case invalidatesItemsAnsweringNeedsUI(failingWith: KeychainStatus)

    /// The failures an invalidated item is played with: an OSStatus (`errSecAuthFailed`,
    /// SecBase.h), an LAError (`LAErrorInvalidContext`, LAError.h) or a CryptoTokenKit error
    /// (`TKErrorCodeCorruptedData`, TKError.h).
    public static let failures: [KeychainStatus] = [.authFailed, .localAuthentication(.invalidContext), .cryptoTokenKit(-3)]

    /// Every way the simulator can report a change that a call without UI hears: deleted, or kept
    /// and failing with each of ``failures``.
    public static let all: [EnrollmentChangeBehaviour] = [.deletesItems] + failures.map { .invalidatesItems(failingWith: $0) }

    /// Every way of reporting a change that answers a call without UI as a sound item would: kept,
    /// "needs UI" without UI, and failing with each of ``failures`` on a prompt.
    public static let answeringNeedsUI: [EnrollmentChangeBehaviour] = failures.map { .invalidatesItemsAnsweringNeedsUI(failingWith: $0) }
}
