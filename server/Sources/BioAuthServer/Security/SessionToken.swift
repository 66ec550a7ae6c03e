import BioAuthProtocol
import Crypto
import Foundation

/// A bearer token: `bat_` and the base64url of its session's 16 identifier bytes followed by 256
/// random bits (64 characters). The server keeps only its SHA-256, so a stolen database holds
/// nothing that can be presented as a token.
///
/// The session id inside lets the server find the session by its primary key, so no index of
/// token digests is written at each sign-in: a digest is random, and each new one landed on its
/// own page of that index. The id is no secret (every session answer shows it); the 256 random
/// bits are the secret.
///
/// A service credential (a bank backend's, `bsc_`, naming its `svc_` id) is made and looked up
/// the same way in its own ``Format``: neither is ever taken for the other.
struct SessionToken: Sendable {
    /// What a token's text begins with and whose identifier it carries.
    struct Format: Sendable {
        /// The text's prefix.
        let prefix: String
        /// The prefix of the identifier inside.
        let identifier: IdentifierPrefix

        /// A session's token, `bat_`.
        static let session = Format(prefix: "bat_", identifier: .session)
        /// A service credential, `bsc_`.
        static let serviceCredential = Format(prefix: "bsc_", identifier: .serviceCredential)
    }

    /// The text the client presents; never stored, never logged.
    let text: String

    /// Bytes of a token's base64url after `bat_`: the session's identifier bytes, then the secret.
    private static let identifierLength = 16, secretLength = 32

    /// A new token for the session (or, in another `format`, the credential) whose identifier
    /// spells `sessionIDBytes` (``SecureRandom/identifierBytes(at:)``).
    static func generate(sessionIDBytes: Data, format: Format = .session) -> SessionToken {
        precondition(sessionIDBytes.count == identifierLength)
        return SessionToken(text: format.prefix + Base64URL.encode(sessionIDBytes + SecureRandom.bytes(secretLength)))
    }

    /// The digest stored in, and looked up from, the database.
    var digest: Data {
        Self.digest(of: text)
    }

    /// The digest of whatever text a client presents (well-formed or not).
    static func digest(of text: String) -> Data {
        Data(SHA256.hash(data: Data(text.utf8)))
    }

    /// What a presented token asks the database for: the session with this id, if its stored
    /// digest is this one.
    struct Lookup: Equatable, Sendable {
        var id: String
        var digest: Data
    }

    /// How to look up `text`, or nil when it cannot be a token of `format` this server issued
    /// (then no query is needed to refuse it).
    static func lookup(_ text: String, format: Format = .session) -> Lookup? {
        guard text.hasPrefix(format.prefix), let bytes = Base64URL.decode(String(text.dropFirst(format.prefix.count))),
            bytes.count == identifierLength + secretLength
        else { return nil }
        return Lookup(id: format.identifier.spelling(bytes.prefix(identifierLength)), digest: digest(of: text))
    }
}
