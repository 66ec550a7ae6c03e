import Foundation
import JWTKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gets BioAuth's key set over HTTP: finds its address in the issuer's RFC 8414 metadata (or is
/// told it), fetches it, and reads how long it may be kept from its `Cache-Control` header.
struct KeySetFetcher: Sendable {
    /// A fetched key set and how long it may be used without asking again.
    struct Fetched: Sendable {
        /// The keys.
        var keySet: JWKS
        /// `Cache-Control: max-age`, or ``defaultMaxAge`` without one (0 for `no-store`/`no-cache`).
        var maxAge: TimeInterval
    }

    /// How long a key set without a `max-age` is kept.
    static let defaultMaxAge: TimeInterval = 300
    /// The longest a key set is kept whatever it says, so a rotation is seen within the hour.
    static let longestMaxAge: TimeInterval = 3600

    /// The issuer, as tokens name it in `iss`.
    let issuer: String
    /// The key set's address when configured; otherwise it comes from the issuer's metadata.
    let jwksURL: URL?

    /// Fetches the key set, looking its address up first unless configured.
    func fetch() async throws -> Fetched {
        let address = if let jwksURL { jwksURL } else { try await discoverKeySetURL() }
        let (data, response) = try await get(address)
        let keySet = try JSONDecoder().decode(JWKS.self, from: data)
        return Fetched(keySet: keySet, maxAge: Self.maxAge(cacheControl: response.value(forHTTPHeaderField: "Cache-Control")))
    }

    /// RFC 8414 §3: `/.well-known/oauth-authorization-server` goes between the issuer's host and
    /// its path, and the document's `issuer` must be the issuer asked about (§3.3), else a server
    /// could name itself the issuer of another's tokens.
    private func discoverKeySetURL() async throws -> URL {
        guard var parts = URLComponents(string: issuer) else { throw FetchError("the issuer is not a URL") }
        let path = parts.path == "/" ? "" : parts.path
        parts.path = "/.well-known/oauth-authorization-server" + path
        guard let metadataURL = parts.url else { throw FetchError("the issuer is not a URL") }
        let (data, _) = try await get(metadataURL)
        let metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: data)
        guard metadata.issuer == issuer else { throw FetchError("the metadata names another issuer") }
        guard let jwksURL = URL(string: metadata.jwksURI) else { throw FetchError("jwks_uri is not a URL") }
        return jwksURL
    }

    private func get(_ url: URL) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url, timeoutInterval: 5)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw FetchError("GET \(url.absoluteString) did not answer 200")
        }
        return (data, http)
    }

    /// The seconds a response may be kept by its `Cache-Control` header, at most ``longestMaxAge``.
    static func maxAge(cacheControl: String?) -> TimeInterval {
        guard let cacheControl else { return defaultMaxAge }
        var maxAge = defaultMaxAge
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts[0] == "no-store" || parts[0] == "no-cache" { return 0 }
            if parts[0] == "max-age", parts.count == 2, let seconds = Int(parts[1]), seconds >= 0 {
                maxAge = TimeInterval(seconds)
            }
        }
        return min(maxAge, longestMaxAge)
    }
}

/// The members of an RFC 8414 authorization server metadata document this backend reads.
private struct AuthorizationServerMetadata: Decodable {
    var issuer: String
    var jwksURI: String

    enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
    }
}

/// The key set could not be fetched.
struct FetchError: Error, CustomStringConvertible {
    /// What went wrong (no token, no key material).
    var description: String

    init(_ description: String) { self.description = description }
}
