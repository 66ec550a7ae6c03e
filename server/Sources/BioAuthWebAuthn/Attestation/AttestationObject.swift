/// The attestation object a registration returns (WebAuthn Level 3 §6.5.4): the statement's
/// format, the statement, and the authenticator data with the new credential.
package struct AttestationObject: Sendable {
    /// The statement format identifier (`none`, `packed`, `tpm`, …).
    package let format: String
    /// The attestation statement, a map whose shape the format defines.
    package let statement: CBORValue
    /// The authenticator data; its AT flag is set and it carries the new credential.
    package let authenticatorData: AuthenticatorData
    /// The new credential.
    package let credential: AttestedCredentialData

    /// Parses an attestation object: a CBOR map with text `fmt`, map `attStmt` and byte string
    /// `authData` holding attested credential data.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder().decode(bytes)
        } catch {
            throw WebAuthnError(.invalidCBOR, "attestation object: \(error)")
        }
        guard case .text(let format)? = value["fmt"], case .map? = value["attStmt"], case .bytes(let authData)? = value["authData"] else {
            throw WebAuthnError(.invalidResponse, "the attestation object needs text fmt, map attStmt and bytes authData")
        }
        let data = try AuthenticatorData(authData)
        guard let credential = data.attestedCredential else {
            throw WebAuthnError(.invalidAuthenticatorData, "a registration's authenticator data must carry the credential (AT)")
        }
        self.format = format
        self.statement = value["attStmt"]!
        self.authenticatorData = data
        self.credential = credential
    }
}
