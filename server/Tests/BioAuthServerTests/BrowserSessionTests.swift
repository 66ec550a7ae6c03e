import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// The account page's browser session: the token lives only in an `HttpOnly; SameSite=Strict`
/// cookie (`Secure` but on `http://localhost`), every change by cookie needs the page's origin
/// and CSRF token, and the page itself runs under a policy with no inline code.
@Suite("Browser session: cookie, CSRF and the page's policy")
struct BrowserSessionTests {
    static let page: HTTPFields = [.origin: APIClient.origin]

    /// Signs up through the page's call; the cookie's value and attributes, and the body.
    static func signUp(
        _ api: APIClient,
        origin: String = APIClient.origin
    ) async throws -> (cookie: String, attributes: [String], session: WebSessionResponse) {
        let answer = try await api.call(
            .post,
            Endpoint.webSignUp.path(),
            json: CreateUserRequest(
                username: "page-\(UUID().uuidString.prefix(8))",
                password: "correct horse battery"
            ),
            headers: [.origin: origin]
        )
        try #require(answer.status == .created)
        let header = try #require(answer.headers[.setCookie])
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let cookie = try #require(parts.first.flatMap { $0.hasPrefix("bioauth_session=") ? String($0.dropFirst("bioauth_session=".count)) : nil })
        return (cookie, Array(parts.dropFirst()), try answer.decode(WebSessionResponse.self))
    }

    @Test("sign-up from the page sets an HttpOnly, Secure, SameSite=Strict cookie; the body has a CSRF token and never the session token")
    func cookieAttributes() async throws {
        try await TestServer.run { server in
            let (cookie, attributes, session) = try await Self.signUp(server.api)
            #expect(cookie.hasPrefix("bat_"))
            #expect(
                attributes.contains("HttpOnly") && attributes.contains("Secure") && attributes.contains("SameSite=Strict")
                    && attributes.contains("Path=/")
            )
            let lifetime = Int(session.session.expiresAt.timeIntervalSince(session.session.createdAt))
            #expect(attributes.contains("Max-Age=\(lifetime)"), "the cookie lives as long as the session")
            #expect(session.csrfToken != cookie && !session.csrfToken.isEmpty)
            #expect(session.session.authentication.method == .password)
            #expect(session.userHandle.data == Data(session.user.id.utf8) && session.rpID == LoopbackServer.relyingPartyID)
            let current = try await server.api.call(.get, Endpoint.getWebSession.path(), headers: [.cookie: "bioauth_session=\(cookie)"])
            #expect(try current.decode(WebSessionResponse.self).csrfToken == session.csrfToken)
        }
    }

    @Test("Secure is left out only for a page on http://localhost")
    func localhostCookie() async throws {
        try await TestServer.run(configure: { $0.webAuthnOrigins = ["http://localhost:8123", APIClient.origin] }) { server in
            let local = try await Self.signUp(server.api, origin: "http://localhost:8123")
            let remote = try await Self.signUp(server.api, origin: APIClient.origin)
            #expect(!local.attributes.contains("Secure") && local.attributes.contains("HttpOnly"))
            #expect(remote.attributes.contains("Secure"))
        }
    }

    @Test("a change by cookie without the CSRF token, with another session's, or from another origin is 403 csrf_failed and changes nothing")
    func csrf() async throws {
        try await TestServer.run { server in
            let api = server.api
            let (cookie, _, session) = try await Self.signUp(api)
            let other = try await Self.signUp(api)
            let jar: HTTPFields = [.cookie: "bioauth_session=\(cookie)"]
            let before = try await server.snapshot()
            let attempts: [HTTPFields] = [
                jar.merging([.origin: APIClient.origin]),
                jar.merging([.origin: APIClient.origin, BrowserSession.csrfHeader: other.session.csrfToken]),
                jar.merging([.origin: "https://evil.example", BrowserSession.csrfHeader: session.csrfToken]),
                jar.merging([BrowserSession.csrfHeader: session.csrfToken]),
            ]
            for headers in attempts {
                for (method, path) in [
                    (HTTPRequest.Method.delete, Endpoint.signOutElsewhere.path()), (.post, Endpoint.webSignOut.path()),
                    (.post, Endpoint.createPasskeyRegistrationOptions.path()),
                ] {
                    #expect(try await api.call(method, path, headers: headers).errorCode == .csrfFailed, "\(method) \(path) \(headers)")
                }
            }
            #expect(try await server.snapshot() == before)
            // Reading needs no token; a change with the page's origin and token goes through.
            #expect(try await api.call(.get, Endpoint.listSessions.path(), headers: jar).status == .ok)
            let signOut = try await api.call(
                .post,
                Endpoint.webSignOut.path(),
                headers: jar.merging([.origin: APIClient.origin, BrowserSession.csrfHeader: session.csrfToken])
            )
            #expect(signOut.status == .noContent)
            #expect(signOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            try await api.expectError(.invalidSession, .get, Endpoint.getWebSession.path(), raw: nil, token: nil)
            #expect(try await api.call(.get, Endpoint.getWebSession.path(), headers: jar).errorCode == .invalidSession)
        }
    }

    @Test("a bearer token needs no CSRF token: CSRF is a cookie's problem")
    func bearerUnaffected() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            #expect(try await server.api.call(.delete, Endpoint.signOutElsewhere.path(), token: account.sessionToken).status == .noContent)
        }
    }

    @Test("signing in or up from another page (login CSRF) is 403 csrf_failed and creates nothing")
    func loginCSRF() async throws {
        try await TestServer.run { server in
            let api = server.api
            let user = try await api.signUp()
            let before = try await server.snapshot()
            for origin in [nil, "https://evil.example", "https://bank.example.evil.example"] {
                let headers: HTTPFields = origin.map { [.origin: $0] } ?? [:]
                #expect(
                    try await api.call(
                        .post,
                        Endpoint.webSignInWithPassword.path(),
                        json: PasswordSignInRequest(username: user.username, password: "correct horse battery"),
                        headers: headers
                    ).errorCode == .csrfFailed
                )
                #expect(
                    try await api.call(
                        .post,
                        Endpoint.webSignUp.path(),
                        json: CreateUserRequest(username: "planted-\(UUID().uuidString.prefix(6))", password: "correct horse battery"),
                        headers: headers
                    ).errorCode == .csrfFailed
                )
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("the page and its assets are served with a policy allowing no inline code or framing, and the page has none")
    func contentSecurityPolicy() async throws {
        try await TestServer.run { server in
            let page = try await server.api.call(.get, Endpoint.getAccountPage.path())
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(!policy.contains("unsafe-") && policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff" && page.headers[.contentType]?.hasPrefix("text/html") == true)
            let html = String(decoding: page.body, as: UTF8.self)
            // No inline script or style, no handler attributes, no style attributes.
            #expect(html.range(of: #"<script(?![^>]*\bsrc=)[^>]*>"#, options: .regularExpression) == nil)
            #expect(html.range(of: #"<style\b|\son[a-z]+\s*=|\sstyle\s*="#, options: [.regularExpression, .caseInsensitive]) == nil)
            #expect(html.contains(#"<script type="module" src="/assets/app.js"></script>"#) && html.contains(#"href="/assets/app.css""#))
            for name in AccountPageAssets.byName.keys.sorted() {
                let asset = try await server.api.call(.get, Endpoint.getAccountAsset.path(name))
                #expect(asset.headers[.contentSecurityPolicy] == policy && asset.headers[.xContentTypeOptions] == "nosniff", "\(name)")
                #expect(!String(decoding: asset.body, as: UTF8.self).contains("eval("), "\(name)")
            }
        }
    }
}

extension HTTPFields {
    /// These fields and `other`'s.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
