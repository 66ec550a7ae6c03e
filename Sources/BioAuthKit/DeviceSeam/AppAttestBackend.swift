import Foundation

/// The App Attest calls BioAuthKit uses (`DCAppAttestService`, DeviceCheck), one to one; a
/// failure is thrown as the platform reports it (``KeychainStatus/Domain/deviceCheck`` and a
/// ``DCErrorCode``), and BioAuthKit decides what it means in one place.
///
/// https://developer.apple.com/documentation/devicecheck/dcappattestservice
@_spi(DeviceSeam) public protocol AppAttestBackend: Sendable {
    /// `isSupported`: whether this device offers App Attest (most apps running on a Mac, and the
    /// Xcode Simulator, do not).
    var isSupported: Bool { get }
    /// `generateKey()`: a new App Attest key in the Secure Enclave; its id is the standard base64
    /// of SHA-256 of its public key.
    func generateKey() async throws(KeychainStatus) -> String
    /// `attestKey(_:clientDataHash:)`: Apple's attestation object for the key, over
    /// `clientDataHash`; a key can be attested only once.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data
    /// `generateAssertion(_:clientDataHash:)`: the attested key's assertion over `clientDataHash`.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws(KeychainStatus) -> Data
}
