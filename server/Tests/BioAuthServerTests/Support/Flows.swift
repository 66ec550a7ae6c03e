import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// What the server tests call beside the shared ceremonies (BioAuthTesting): a PIN sign-in whose
/// answer the test reads, success or not.
extension APIClient {
    /// `POST /v1/sessions/pin` with a fresh signed challenge: the raw answer.
    @discardableResult
    func pinSignIn(_ device: PINDevice, pin: String) async throws -> APIResponse {
        try await call(.post, Endpoint.signInWithPin.path(), json: try await pinSignInBody(device, pin: pin))
    }
}
