/// The parts of App Attest's authenticator data the checks read: WebAuthn's layout (§6.1), read
/// as Apple writes it. An assertion's data sets the AT flag without carrying a credential, and
/// newer systems append extensions without setting ED, so only the fixed-position fields are
/// read and whatever follows the credential id is left alone (the key comes from the certificate).
struct AppAttestAuthenticatorData {
    var rpIDHash: [UInt8]
    var counter: UInt32
    /// Present in an attestation's data.
    var aaguid: [UInt8]?
    var credentialID: [UInt8]?

    init(_ bytes: [UInt8], withCredential: Bool) throws(AttestationFailure) {
        guard bytes.count >= 37 else { throw AttestationFailure(.malformed, "authenticator data of \(bytes.count) bytes") }
        rpIDHash = Array(bytes[0..<32])
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard withCredential else { return }
        guard bytes.count >= 55 else { throw AttestationFailure(.malformed, "no attested credential data") }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else { throw AttestationFailure(.malformed, "a credential id past the end") }
        credentialID = Array(bytes[55..<(55 + length)])
    }
}
