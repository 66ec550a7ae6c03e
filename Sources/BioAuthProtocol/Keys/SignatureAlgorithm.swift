/// The signature algorithms a device key may use. The server stores the algorithm with the key
/// and never accepts another one for it.
public enum SignatureAlgorithm: String, Sendable, CaseIterable, Codable {
    /// ECDSA over P-256 with SHA-256, strict DER signatures (the Secure Enclave's algorithm; default).
    case es256 = "ES256"
    /// Ed25519 (RFC 8032), 64-byte signatures; a software key, supported for compatibility.
    case ed25519 = "Ed25519"
}
