import Foundation

/// Non-secret bookkeeping kept next to each protected item or key, readable without a prompt:
/// the policy it was created with (`nil` for a possession key, which needs no match), the
/// biometric domain state then (the baseline an enrollment change is explained with) and, on iOS
/// 18 and macOS 15, the enrolled set's state hash (the baseline it is recognised by), and for
/// keys the public key.
///
/// An attacker who can write app storage can alter it; that only changes which error is
/// reported, never whether the hardware releases anything.
struct ItemRecord: Codable, Sendable, Equatable {
    var policy: BiometricPolicy?
    var baseline: Data?
    var stateHash: Data?
    var publicKey: Data?
    var algorithm: String?
}
