import BioAuthProtocol
import Hummingbird

/// `/v1/biometric/…` (device key registrations and challenges) and the biometric sign-in.
struct BiometricRoutes {
    let biometrics: BiometricService
    let registrations: RegistrationService

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.createChallenge, in: catalog) { request, context in
            let body = try await JSONBody.decode(CreateChallengeRequest.self, from: request, context: context)
            return JSONBody.response(json: HandWrittenJSON.challenge(try await biometrics.createChallenge(body)), status: .created)
        }
        router.route(.signInWithBiometric, in: catalog) { request, context in
            let body = try await JSONBody.decode(BiometricSignInRequest.self, from: request, context: context)
            return JSONBody.response(json: HandWrittenJSON.signIn(try await biometrics.signIn(body)))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>, catalog: RouteCatalog) {
        router.route(.startRegistration, in: catalog) { request, context in
            let body = try await JSONBody.decode(StartRegistrationRequest.self, from: request, context: context)
            return try JSONBody.response(try await registrations.start(body, for: try context.requireCaller()), status: .created)
        }
        router.route(.verifyRegistration, in: catalog) { request, context in
            let id = try context.pathID()
            let body = try await JSONBody.decode(VerifyRegistrationRequest.self, from: request, context: context)
            let registration = try await registrations.verify(id: id, body, for: try context.requireCaller())
            return try JSONBody.response(RegistrationResponse(registration: registration))
        }
        router.route(.listRegistrations, in: catalog) { _, context in
            try JSONBody.response(RegistrationListResponse(registrations: try await registrations.registrations(of: try context.requireCaller())))
        }
        router.route(.renameRegistration, in: catalog) { request, context in
            let id = try context.pathID()
            let body = try await JSONBody.decode(RenameRequest.self, from: request, context: context)
            return try JSONBody.response(RegistrationResponse(registration: try await registrations.rename(id: id, to: body.label, for: try context.requireCaller())))
        }
        router.route(.deleteRegistration, in: catalog) { _, context in
            let id = try context.pathID()
            try await registrations.delete(id: id, for: try context.requireCaller())
            return Response(status: .noContent)
        }
    }
}
