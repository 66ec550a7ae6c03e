import BioAuthProtocol
import Hummingbird

/// `/v1/biometric/…` (device key registrations and challenges) and the biometric sign-in.
struct BiometricRoutes {
    /// The services, built once by the composition root.
    let services: ServerServices

    func addPublicRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.createChallenge) { request, context in
            let body = try await request.decode(as: CreateChallengeRequest.self, context: context)
            return PrewrittenJSON(json: HandWrittenJSON.challenge(try await services.biometrics.createChallenge(body)), status: .created)
        }
        router.route(.signInWithBiometric) { request, context in
            let body = try await request.decode(as: BiometricSignInRequest.self, context: context)
            return PrewrittenJSON(json: HandWrittenJSON.signIn(try await services.biometrics.signIn(body)))
        }
    }

    func addAuthenticatedRoutes(to router: some RouterMethods<BioAuthRequestContext>) {
        router.route(.startRegistration) { request, context in
            let body = try await request.decode(as: StartRegistrationRequest.self, context: context)
            return EditedResponse(status: .created, response: try await services.registrations.start(body, for: try context.requireCaller()))
        }
        router.route(.createAttestationChallenge) { _, context in
            EditedResponse(status: .created, response: try await services.keyAttestations.issueChallenge(for: try context.requireCaller()))
        }
        router.route(.verifyRegistration) { request, context in
            let id = try context.pathID()
            let body = try await request.decode(as: VerifyRegistrationRequest.self, context: context)
            let registration = try await services.registrations.verify(id: id, body, for: try context.requireCaller())
            return RegistrationResponse(registration: registration)
        }
        router.route(.listRegistrations) { _, context in
            RegistrationListResponse(registrations: try await services.registrations.registrations(of: try context.requireCaller()))
        }
        router.route(.renameRegistration) { request, context in
            let id = try context.pathID()
            let body = try await request.decode(as: RenameRequest.self, context: context)
            return RegistrationResponse(
                registration: try await services.registrations.rename(id: id, to: body.label, for: try context.requireCaller())
            )
        }
        router.route(.deleteRegistration) { _, context in
            let id = try context.pathID()
            try await services.registrations.delete(id: id, for: try context.requireCaller())
            return HTTPResponse.Status.noContent
        }
    }
}
