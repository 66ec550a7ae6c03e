import BioAuthProtocol
import Hummingbird

/// `/v1/users`, the password and PIN sign-ins, the PIN and the password change.
struct AccountRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createUser) { request, context in
            let body = try await request.decode(as: CreateUserRequest.self, context: context)
            return EditedResponse(status: .created, response: UserResponse(user: try await services.accounts.createUser(body)))
        }
        router.route(.signInWithPassword) { request, context in
            let body = try await request.decode(as: PasswordSignInRequest.self, context: context)
            return PrewrittenJSON(json: HandWrittenJSON.signIn(try await services.passwordSignIn.signIn(body)))
        }
        router.route(.signInWithPin) { request, context in
            let body = try await request.decode(as: PINSignInRequest.self, context: context)
            return PrewrittenJSON(json: HandWrittenJSON.signIn(try await services.pins.signIn(body)))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.setPin) { request, context in
            let body = try await request.decode(as: SetPINRequest.self, context: context)
            return EditedResponse(status: .created, response: try await services.pins.setPIN(body, for: try context.requireCaller()))
        }
        router.route(.changePassword) { request, context in
            let body = try await request.decode(as: ChangePasswordRequest.self, context: context)
            try await services.accounts.changePassword(body, for: try context.requireCaller())
            return HTTPResponse.Status.noContent
        }
    }
}
