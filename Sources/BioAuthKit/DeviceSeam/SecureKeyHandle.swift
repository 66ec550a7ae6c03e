/// A reference to a private key that lives in secure hardware (a `SecKey`); never its bytes.
@_spi(DeviceSeam) public protocol SecureKeyHandle: Sendable {}
