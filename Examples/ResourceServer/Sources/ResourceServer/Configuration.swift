import Foundation

/// What this backend is told at start, from its command line:
///
///     resource-server --issuer URL --audience AUDIENCE [--jwks-url URL] [--host H] [--port P]
///                     [--step-up-max-age SECONDS] [--leeway SECONDS] [--key-refetch-interval SECONDS]
struct Configuration: Sendable {
    /// BioAuth's issuer: the `iss` every token must carry, and where the key set is found (RFC 8414
    /// metadata at `<issuer>/.well-known/oauth-authorization-server`) unless ``jwksURL`` is given.
    var issuer: String
    /// This backend's name in BioAuth's `--access-token-audience`: a token must list it in `aud`.
    var audience: String
    /// The key set's address, when it is not looked up from the issuer's metadata.
    var jwksURL: URL?
    /// The address to listen on.
    var host = "127.0.0.1"
    /// The port to listen on (0: a free one, printed at start).
    var port = 8090
    /// How old the session's last strong authentication (`step_up_at`) may be for `POST /transfer`.
    var stepUpMaxAge: TimeInterval = 300
    /// Clock skew tolerated on `exp`, `nbf` and `step_up_at`, between BioAuth's clock and ours.
    var leeway: TimeInterval = 30
    /// The least time between two fetches of the key set (for a token whose `kid` is not in it, or
    /// after its `max-age`), so that tokens with made-up key ids cannot make this backend hammer BioAuth.
    var keyRefetchInterval: TimeInterval = 30

    /// Reads `arguments` (without the program's name); throws a message for the user otherwise.
    init(arguments: [String]) throws(ConfigurationError) {
        var issuer: String?
        var audience: String?
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw ConfigurationError("\(flag) needs a value") }
            switch flag {
            case "--issuer": issuer = value
            case "--audience": audience = value
            case "--jwks-url": jwksURL = try Self.url(value, flag)
            case "--host": host = value
            case "--port": port = try Self.number(value, flag)
            case "--step-up-max-age": stepUpMaxAge = TimeInterval(try Self.number(value, flag))
            case "--leeway": leeway = TimeInterval(try Self.number(value, flag))
            case "--key-refetch-interval": keyRefetchInterval = TimeInterval(try Self.number(value, flag))
            default: throw ConfigurationError("unknown option \(flag)")
            }
        }
        guard let issuer, let audience else { throw ConfigurationError("--issuer and --audience are required") }
        _ = try Self.url(issuer, "--issuer")
        self.issuer = issuer
        self.audience = audience
    }

    private static func url(_ value: String, _ flag: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: value), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ConfigurationError("\(flag) must be an http(s) URL")
        }
        return url
    }

    private static func number(_ value: String, _ flag: String) throws(ConfigurationError) -> Int {
        guard let number = Int(value), number >= 0 else { throw ConfigurationError("\(flag) must be a whole number ≥ 0") }
        return number
    }
}

/// A command line this backend cannot start with.
struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong, for the user.
    var description: String

    init(_ description: String) { self.description = description }
}
