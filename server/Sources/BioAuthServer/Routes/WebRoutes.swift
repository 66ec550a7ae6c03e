import BioAuthProtocol
import HTTPTypes
import Hummingbird
import NIOCore

/// The account page (`/` and its two assets, served from the binary), its browser-session calls
/// (`/web/…`: the session lives in a cookie, see ``BrowserSession``) and the relying party's
/// related origins (`/.well-known/webauthn`).
struct WebRoutes {
    let accounts: AccountService
    let passwordSignIn: PasswordSignInService
    let passkeySignIn: PasskeySignInService
    let sessions: SessionService
    let browser: BrowserSession
    let origins: [String]
    let rpID: String

    /// The page's policy: its own script and style files only, no inline code, no framing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.getAccountPage, in: catalog) { _, _ in Self.asset(PackageResources.index_html, type: "text/html; charset=utf-8") }
        router.route(.getAccountScript, in: catalog) { _, _ in Self.asset(PackageResources.app_js, type: "text/javascript; charset=utf-8") }
        router.route(.getAccountStyle, in: catalog) { _, _ in Self.asset(PackageResources.app_css, type: "text/css; charset=utf-8") }
        router.route(.getRelatedOrigins, in: catalog) { _, _ in try JSONBody.response(RelatedOriginsResponse(origins: origins)) }
        router.route(.webSignUp, in: catalog) { request, context in
            try browser.checkOrigin(request)
            let body = try await JSONBody.decode(CreateUserRequest.self, from: request, context: context)
            return try start(try await accounts.createUserAndSignIn(body), request: request, status: .created)
        }
        router.route(.webSignInWithPassword, in: catalog) { request, context in
            try browser.checkOrigin(request)
            let body = try await JSONBody.decode(PasswordSignInRequest.self, from: request, context: context)
            return try start(try await passwordSignIn.signIn(body), request: request)
        }
        router.route(.webSignInWithPasskey, in: catalog) { request, context in
            try browser.checkOrigin(request)
            let body = try await JSONBody.decode(PasskeySignInRequest.self, from: request, context: context)
            return try start(try await passkeySignIn.signIn(body), request: request)
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.getWebSession, in: catalog) { request, context in
            let current = try await sessions.current(try context.requireCaller())
            return try JSONBody.response(webSession(user: current.user, session: current.session, token: BrowserSession.token(in: request) ?? ""))
        }
        router.route(.webSignOut, in: catalog) { request, context in
            let caller = try context.requireCaller()
            try await sessions.revoke(caller.sessionID, of: caller)
            var response = Response(status: .noContent)
            response.setCookie(browser.expiredCookie(request: request))
            return response
        }
    }

    /// A signed-in browser: the cookie, and the session without its token.
    private func start(_ signedIn: SignInResponse, request: Request, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try JSONBody.response(webSession(user: signedIn.user, session: signedIn.session, token: signedIn.sessionToken), status: status)
        response.setCookie(browser.cookie(for: signedIn.sessionToken, session: signedIn.session, request: request))
        return response
    }

    /// What the page sees of a session whose token is `token`: never the token, but its CSRF token.
    private func webSession(user: User, session: Session, token: String) -> WebSessionResponse {
        WebSessionResponse(user: user, session: session, csrfToken: BrowserSession.csrfToken(for: token),
                           userHandle: Base64URLBytes(PasskeyService.userHandle(user.id)), rpID: rpID)
    }

    private static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type, .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer", .cacheControl: "no-cache",
        ], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
