/// A reference to a private key that lives in secure hardware (a `SecKey`); never its bytes.
public protocol SecureKeyHandle: Sendable {}
