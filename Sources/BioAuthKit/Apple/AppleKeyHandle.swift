#if canImport(Security) && canImport(LocalAuthentication)
import Security

/// A `SecKey` (immutable and thread-safe, but not annotated `Sendable`).
struct AppleKeyHandle: SecureKeyHandle, @unchecked Sendable {
    let key: SecKey
}
#endif
