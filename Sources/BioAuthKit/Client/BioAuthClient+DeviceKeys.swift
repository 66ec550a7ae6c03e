import Foundation

extension BioAuthClient {
    /// Registers the new device key `keyName`: `start` opens the registration (re-authenticating
    /// as `stepUp` says when the server asks), the key signs its challenge (showing `prompt` if it
    /// is behind biometrics), the server verifies the signature, and `keep` records the
    /// registration on this device. A failure at any step leaves no orphan: the key is deleted here
    /// and the pending registration on the server (with `token`, the session the caller began
    /// with); an earlier registration is untouched.
    func registerKey(
        named keyName: String,
        token: String,
        prompt: String,
        stepUp: Reauthentication?,
        start: () async throws(BioAuthError) -> RegistrationStartResponse,
        keep: (_ registrationID: String) throws(BioAuthError) -> Void
    ) async throws(BioAuthError) -> Registration {
        var registrationID: String?
        do {
            let started = try await withStepUp(stepUp, start)
            registrationID = started.registrationID
            let message = SignedMessage(
                ceremony: .registration,
                relyingPartyID: configuration.relyingPartyID,
                registrationID: started.registrationID,
                challenge: started.challenge.data
            )
            let signature = try await keys.sign(message, withKeyNamed: keyName, prompt: prompt)
            let registration = try await api.call(
                .verifyRegistration,
                id: started.registrationID,
                body: VerifyRegistrationRequest(signature: signature),
                token: try requireToken(),
                as: RegistrationResponse.self
            ).registration
            try keep(started.registrationID)
            return registration
        } catch {
            await keys.deleteKey(named: keyName)
            if let registrationID { try? await api.call(.deleteRegistration, id: registrationID, token: token) }
            throw error
        }
    }

    /// A fresh authentication challenge for registration `registrationID`
    /// (`POST /v1/biometric/challenges`), and the message its device key signs to answer it.
    func authenticationChallenge(for registrationID: String) async throws(BioAuthError) -> (id: String, message: SignedMessage) {
        let challenge = try await api.call(
            .createChallenge,
            body: CreateChallengeRequest(registrationID: registrationID),
            as: ChallengeResponse.self
        )
        let message = SignedMessage(
            ceremony: .authentication,
            relyingPartyID: configuration.relyingPartyID,
            registrationID: registrationID,
            challenge: challenge.challenge.data
        )
        return (challenge.challengeID, message)
    }
}
