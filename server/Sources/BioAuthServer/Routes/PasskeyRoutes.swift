import BioAuthProtocol
import Hummingbird

/// `/v1/passkeys…` (adding, listing, renaming and removing passkeys), the passkey sign-in and the
/// relying party's related origins (`/.well-known/webauthn`).
struct PasskeyRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices
    /// The origins that may use the relying party's id, as configured.
    let relatedOrigins: [String]

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createPasskeyAuthenticationOptions) { request, context in
            let body = try await request.decode(as: PasskeyAuthenticationOptionsRequest.self, context: context)
            return EditedResponse(status: .created, response: try await services.passkeySignIn.options(body))
        }
        router.route(.signInWithPasskey) { request, context in
            let body = try await request.decode(as: PasskeySignInRequest.self, context: context)
            return PrewrittenJSON(json: HandWrittenJSON.signIn(try await services.passkeySignIn.signIn(body)))
        }
        router.route(.getRelatedOrigins) { _, _ in RelatedOriginsResponse(origins: relatedOrigins) }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createPasskeyRegistrationOptions) { _, context in
            EditedResponse(status: .created, response: try await services.passkeys.registrationOptions(for: try context.requireCaller()))
        }
        router.route(.registerPasskey) { request, context in
            let body = try await request.decode(as: RegisterPasskeyRequest.self, context: context)
            return EditedResponse(
                status: .created,
                response: PasskeyResponse(passkey: try await services.passkeys.register(body, for: try context.requireCaller()))
            )
        }
        router.route(.listPasskeys) { _, context in
            PasskeyListResponse(passkeys: try await services.passkeys.list(for: try context.requireCaller()))
        }
        router.route(.renamePasskey) { request, context in
            let id = try context.pathID()
            let body = try await request.decode(as: RenameRequest.self, context: context)
            return PasskeyResponse(passkey: try await services.passkeys.rename(id: id, to: body.label, for: try context.requireCaller()))
        }
        router.route(.deletePasskey) { _, context in
            let id = try context.pathID()
            try await services.passkeys.delete(id: id, for: try context.requireCaller())
            return HTTPResponse.Status.noContent
        }
    }
}
