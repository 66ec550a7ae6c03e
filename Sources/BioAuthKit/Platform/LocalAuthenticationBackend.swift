/// Makes LocalAuthentication contexts (`LAContext()`).
public protocol LocalAuthenticationBackend: Sendable {
    /// A new, unevaluated context.
    func makeContext() -> any AuthenticationContext
}
