import BioAuthProtocol
import Hummingbird

/// `/v1/users`, the password and PIN sign-ins, the PIN and the password change.
struct AccountRoutes {
    let accounts: AccountService
    let passwordSignIn: PasswordSignInService
    let pins: PINService

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.createUser, in: catalog) { request, context in
            let body = try await JSONBody.decode(CreateUserRequest.self, from: request, context: context)
            return try JSONBody.response(UserResponse(user: try await accounts.createUser(body)), status: .created)
        }
        router.route(.signInWithPassword, in: catalog) { request, context in
            let body = try await JSONBody.decode(PasswordSignInRequest.self, from: request, context: context)
            return JSONBody.response(json: HandWrittenJSON.signIn(try await passwordSignIn.signIn(body)))
        }
        router.route(.signInWithPin, in: catalog) { request, context in
            let body = try await JSONBody.decode(PINSignInRequest.self, from: request, context: context)
            return JSONBody.response(json: HandWrittenJSON.signIn(try await pins.signIn(body)))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.setPin, in: catalog) { request, context in
            let body = try await JSONBody.decode(SetPINRequest.self, from: request, context: context)
            return try JSONBody.response(try await pins.setPIN(body, for: try context.requireCaller()), status: .created)
        }
        router.route(.changePassword, in: catalog) { request, context in
            let body = try await JSONBody.decode(ChangePasswordRequest.self, from: request, context: context)
            try await accounts.changePassword(body, for: try context.requireCaller())
            return Response(status: .noContent)
        }
    }
}
