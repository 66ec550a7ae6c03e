#if canImport(Security) && canImport(LocalAuthentication)
import LocalAuthentication

/// `LAContext()`, passed through.
struct AppleLocalAuthentication: LocalAuthenticationBackend {
    func makeContext() -> any AuthenticationContext {
        AppleAuthenticationContext()
    }
}
#endif
