import Crypto

/// An App Attest key the server has verified: what it keeps to check the key's assertions.
package struct AppAttestKey: Hashable, Sendable {
    /// SHA-256 of the public key, the `keyId` `DCAppAttestService.generateKey` returned.
    package var keyID: [UInt8]
    /// The public key, as X9.63 (65 bytes, uncompressed).
    package var publicKey: [UInt8]
    /// The app that attested it.
    package var appID: String
    /// The last counter seen: 0 after the attestation, then each assertion's.
    package var counter: UInt32

    /// A key from its parts.
    package init(keyID: [UInt8], publicKey: [UInt8], appID: String, counter: UInt32) {
        self.keyID = keyID
        self.publicKey = publicKey
        self.appID = appID
        self.counter = counter
    }
}
