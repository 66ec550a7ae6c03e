@_spi(DeviceSeam) import BioAuthKit

/// How this device's `.biometryCurrentSet` items and keys answer after an enrollment change.
///
/// SecAccessControl.h (iOS 16.5 SDK), `kSecAccessControlBiometryCurrentSet`: "When fingers are
/// added or removed, the item is invalidated. When Face ID is re-enrolled this item is
/// invalidated." Apple does not say how an invalidated item answers. It may be gone, or its
/// reference may survive while every use fails, and the failure may come in any of the three
/// domains a keychain or Secure Enclave call reports in (``KeychainStatus``). BioAuthKit must
/// recognise each; the simulator plays whichever a test picks.
@_spi(DeviceSeam) public enum EnrollmentChangeBehaviour: Sendable, Equatable {
    /// The items and keys are deleted: a lookup answers `errSecItemNotFound` (-25300).
    case deletesItems
    /// The items and keys stay (a lookup by reference succeeds, without a prompt), and every use
    /// (reading the data, signing, or a query that may not show UI) fails at once with `failure`,
    /// without a prompt.
    case invalidatesItems(failingWith: KeychainStatus)

    /// Every way the simulator can report a change: deleted; or kept and failing with an OSStatus
    /// (`errSecAuthFailed`, SecBase.h), an LAError (`LAErrorInvalidContext`, LAError.h) or a
    /// CryptoTokenKit error (`TKErrorCodeCorruptedData`, TKError.h).
    public static let all: [EnrollmentChangeBehaviour] = [
        .deletesItems,
        .invalidatesItems(failingWith: .authFailed),
        .invalidatesItems(failingWith: .localAuthentication(.invalidContext)),
        .invalidatesItems(failingWith: .cryptoTokenKit(-3)),
    ]
}
