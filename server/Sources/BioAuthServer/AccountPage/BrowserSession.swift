import BioAuthProtocol
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The account page's session: the token in an `HttpOnly; SameSite=Strict` cookie (`Secure`
/// except for a page served from `http://localhost`), and a CSRF defence on every state change.
///
/// A state change by cookie (any method but GET and HEAD) needs both: an `Origin` that is one of
/// the relying party's origins, and an `X-CSRF-Token` header equal to the token's CSRF token
/// (SHA-256 of a label and the session token: tied to the session, unguessable without it, and
/// readable by the page only because the server hands it over). SameSite=Strict alone would
/// leave same-site sibling origins and old browsers; the token covers them.
struct BrowserSession: Sendable {
    /// The cookie's name.
    static let cookieName = "bioauth_session"
    /// The header the page sends its CSRF token in.
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// The origins a page may call from (the relying party's).
    let origins: Set<String>

    /// The CSRF token of a session token.
    static func csrfToken(for sessionToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array("bioauth csrf v1:".utf8) + Array(sessionToken.utf8)))
    }

    /// The session token a request's cookie carries, if any.
    static func token(in request: Request) -> String? {
        request.cookies[cookieName]?.value
    }

    /// Refuses a cookie-authenticated state change without the page's origin and CSRF token.
    func checkStateChange(_ request: Request, token: String) throws {
        guard request.method != .get, request.method != .head else { return }
        try checkOrigin(request)
        guard let sent = request.headers[Self.csrfHeader], ConstantTime.equals(Array(sent.utf8), Array(Self.csrfToken(for: token).utf8)) else {
            throw Rejection(.csrfFailed, "A change by browser session needs the page's X-CSRF-Token header.")
        }
    }

    /// Refuses a browser sign-in or sign-up from any page but the relying party's own (login CSRF).
    func checkOrigin(_ request: Request) throws {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            throw Rejection(.csrfFailed, "This call must come from the account page's own origin.")
        }
    }

    /// The cookie that carries a new session to the browser, for the session's lifetime.
    func cookie(for token: String, session: Session, request: Request) -> Cookie {
        Cookie(
            name: Self.cookieName,
            value: token,
            maxAge: max(0, Int(session.expiresAt.timeIntervalSince(session.createdAt).rounded(.down))),
            path: "/",
            secure: !Self.isLocalPlainHTTP(request),
            httpOnly: true,
            sameSite: .strict
        )
    }

    /// The cookie that ends it in the browser.
    func expiredCookie(request: Request) -> Cookie {
        Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", secure: !Self.isLocalPlainHTTP(request), httpOnly: true, sameSite: .strict)
    }

    /// A page on `http://localhost` (or a loopback address) cannot keep a `Secure` cookie over
    /// plain HTTP in every browser; only there is the attribute waived.
    private static func isLocalPlainHTTP(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin], let url = URL(string: origin), url.scheme == "http" else { return false }
        return ["localhost", "127.0.0.1", "[::1]", "::1"].contains(url.host ?? "")
    }
}
