import BioAuthProtocol
import BioAuthWebAuthn
import Foundation

extension ConfirmationReceipts.Proof {
    /// A passkey's proof: the passkey, its public key as registered (COSE) and its algorithm (a
    /// COSE number); the assertion's authenticator data, `clientDataJSON` (whose challenge is the
    /// confirmation's message) and signature, so that anyone can check the signature over
    /// `authenticatorData ‖ SHA-256(clientDataJSON)`.
    static func passkey(_ passkey: StoredPasskey, assertion: AuthenticationResponseJSON) -> Self {
        let response = assertion.response
        return Self(
            factor: .passkey,
            credential: [
                ("passkey_id", .string(passkey.id)),
                ("public_key", .string(Base64URL.encode(passkey.publicKey))),
                ("algorithm", .integer(Int64(passkey.algorithm))),
            ],
            evidence: [
                ("authenticator_data", .string(response.authenticatorData.base64URL)),
                ("client_data_json", .string(response.clientDataJSON.base64URL)),
                ("signature", .string(response.signature.base64URL)),
            ],
            appAttest: false
        )
    }
}
