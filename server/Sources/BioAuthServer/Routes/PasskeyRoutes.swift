import BioAuthProtocol
import Hummingbird

/// `/v1/passkeys…` (adding, listing, renaming and removing passkeys) and the passkey sign-in.
struct PasskeyRoutes {
    let passkeys: PasskeyService
    let signIn: PasskeySignInService

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.createPasskeyAuthenticationOptions, in: catalog) { request, context in
            let body = try await JSONBody.decode(PasskeyAuthenticationOptionsRequest.self, from: request, context: context)
            return try JSONBody.response(try await signIn.options(body), status: .created)
        }
        router.route(.signInWithPasskey, in: catalog) { request, context in
            let body = try await JSONBody.decode(PasskeySignInRequest.self, from: request, context: context)
            return JSONBody.response(json: HandWrittenJSON.signIn(try await signIn.signIn(body)))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.createPasskeyRegistrationOptions, in: catalog) { _, context in
            try JSONBody.response(try await passkeys.registrationOptions(for: try context.requireCaller()), status: .created)
        }
        router.route(.registerPasskey, in: catalog) { request, context in
            let body = try await JSONBody.decode(RegisterPasskeyRequest.self, from: request, context: context)
            return try JSONBody.response(PasskeyResponse(passkey: try await passkeys.register(body, for: try context.requireCaller())), status: .created)
        }
        router.route(.listPasskeys, in: catalog) { _, context in
            try JSONBody.response(PasskeyListResponse(passkeys: try await passkeys.list(for: try context.requireCaller())))
        }
        router.route(.renamePasskey, in: catalog) { request, context in
            let id = try context.pathID()
            let body = try await JSONBody.decode(RenameRequest.self, from: request, context: context)
            return try JSONBody.response(PasskeyResponse(passkey: try await passkeys.rename(id: id, to: body.label, for: try context.requireCaller())))
        }
        router.route(.deletePasskey, in: catalog) { _, context in
            let id = try context.pathID()
            try await passkeys.delete(id: id, for: try context.requireCaller())
            return Response(status: .noContent)
        }
    }
}
