import BioAuthProtocol
import HTTPTypes
import Hummingbird

/// The account page (`/` and its files under `/assets/`, served from the binary, see
/// ``AccountPageAssets``) and its browser-session calls (`/web/…`: the session lives in a cookie,
/// see ``BrowserSession``), approving a confirmation with a passkey among them.
struct AccountPageRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices
    let browser: BrowserSession
    let rpID: String

    /// The page and its files: fixed bytes from the binary, which the per-address request limit
    /// does not count (one page load fetches them all).
    func addFileRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.getAccountPage) { _, _ in AccountPageAssets.response(AccountPageAssets.page) }
        router.route(.getAccountAsset) { _, context in
            guard let name = context.parameters.get("id"), let asset = AccountPageAssets.byName[name] else {
                throw Rejection(.notFound, "The account page has no such file.")
            }
            return AccountPageAssets.response(asset)
        }
    }

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.webSignUp) { request, context in
            try browser.checkOrigin(request)
            let body = try await request.decode(as: CreateUserRequest.self, context: context)
            return try start(try await services.accounts.createUserAndSignIn(body), request: request, context: context, status: .created)
        }
        router.route(.webSignInWithPassword) { request, context in
            try browser.checkOrigin(request)
            let body = try await request.decode(as: PasswordSignInRequest.self, context: context)
            return try start(try await services.passwordSignIn.signIn(body), request: request, context: context)
        }
        router.route(.webSignInWithPasskey) { request, context in
            try browser.checkOrigin(request)
            let body = try await request.decode(as: PasskeySignInRequest.self, context: context)
            return try start(try await services.passkeySignIn.signIn(body), request: request, context: context)
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.getWebSession) { request, context in
            let current = try await services.sessions.current(try context.requireCaller())
            return webSession(user: current.user, session: current.session, token: BrowserSession.token(in: request) ?? "")
        }
        router.route(.createConfirmationPasskeyOptions) { _, context in
            let id = try context.pathID()
            return EditedResponse(
                status: .created,
                response: try await services.passkeyConfirmations.options(confirmationID: id, for: try context.requireCaller())
            )
        }
        router.route(.approveConfirmationWithPasskey) { request, context in
            let id = try context.pathID()
            let body = try await request.decode(as: ConfirmationPasskeyRequest.self, context: context)
            return try await services.passkeyConfirmations.approve(confirmationID: id, body, for: try context.requireCaller())
        }
        router.route(.webSignOut) { request, context in
            let caller = try context.requireCaller()
            try await services.sessions.revoke(caller.sessionID, of: caller)
            var response = Response(status: .noContent)
            response.setCookie(browser.expiredCookie(request: request))
            return response
        }
    }

    /// A signed-in browser: the cookie, and the session without its token.
    private func start(
        _ signedIn: SignInResponse,
        request: Request,
        context: BioAuthRequestContext,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        var response = try context.responseEncoder.encode(
            webSession(user: signedIn.user, session: signedIn.session, token: signedIn.sessionToken),
            from: request,
            context: context
        )
        response.status = status
        response.setCookie(browser.cookie(for: signedIn.sessionToken, session: signedIn.session, request: request))
        return response
    }

    /// What the page sees of a session whose token is `token`: never the token, but its CSRF token.
    private func webSession(user: User, session: Session, token: String) -> WebSessionResponse {
        WebSessionResponse(
            user: user,
            session: session,
            csrfToken: BrowserSession.csrfToken(for: token),
            userHandle: Base64URLBytes(PasskeyService.userHandle(user.id)),
            rpID: rpID
        )
    }
}
