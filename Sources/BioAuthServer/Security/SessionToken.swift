import BioAuthProtocol
import Crypto
import Foundation

/// A bearer token: `bat_` and 256 random bits in base64url. The server keeps only its SHA-256,
/// so a stolen database holds nothing that can be presented as a token.
struct SessionToken: Sendable {
    /// The text the client presents; never stored, never logged.
    let text: String

    /// A new random token.
    static func generate() -> SessionToken {
        SessionToken(text: "bat_" + Base64URL.encode(SecureRandom.bytes(32)))
    }

    /// The digest stored in, and looked up from, the database.
    var digest: Data {
        Self.digest(of: text)
    }

    /// The digest of whatever text a client presents (well-formed or not).
    static func digest(of text: String) -> Data {
        Data(SHA256.hash(data: Data(text.utf8)))
    }
}
