import Foundation

/// The client data the browser or platform collected and the authenticator's signature covers
/// (WebAuthn Level 3 §5.8.1), decoded from `clientDataJSON`. Other members are ignored, as
/// §5.8.1.2 requires of relying parties.
package struct CollectedClientData: Decodable, Sendable {
    /// `webauthn.create` or `webauthn.get`.
    package let type: String
    /// The challenge, as the client encoded it (base64url).
    package let challenge: String
    /// The origin of the page or app that called the API.
    package let origin: String
    /// `true` when the call came from an iframe whose origin differs from its top-level origin's.
    package let crossOrigin: Bool?
    /// The top-level origin, sent when the call came from an iframe.
    package let topOrigin: String?

    /// Decodes `clientDataJSON`: a UTF-8 JSON object whose `type`, `challenge` and `origin` are
    /// strings, `crossOrigin` (when present) a boolean and `topOrigin` a string.
    package init(_ json: [UInt8]) throws(WebAuthnError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json))
        } catch {
            throw WebAuthnError(.invalidClientData, "not a JSON object with string type, challenge and origin")
        }
    }
}
