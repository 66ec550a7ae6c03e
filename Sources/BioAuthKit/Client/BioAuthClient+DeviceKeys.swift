import Foundation

extension BioAuthClient {
    /// Registers a new device key `keyName`: the attestation challenge first, where App Attest
    /// evidence can be made (``AppAttestation``); `create` makes the key; `start` opens the
    /// registration with the key and its evidence, if any (re-authenticating as `stepUp` says when
    /// the server asks); the key signs its challenge (showing `prompt` if it is behind
    /// biometrics), the server verifies the signature, and `keep` records the registration on this
    /// device, with the App Attest key whose evidence the server verified, if any. A failure after the key is made leaves no orphan: the key is deleted here and the
    /// pending registration on the server (with `token`, the session the caller began with); an
    /// earlier registration is untouched.
    func registerKey(
        named keyName: String,
        token: String,
        prompt: String,
        stepUp: Reauthentication?,
        create: () async throws(BioAuthError) -> DeviceKey,
        start: (_ key: DeviceKey, _ evidence: KeyAttestationEvidence?) async throws(BioAuthError) -> RegistrationStartResponse,
        keep: (_ registrationID: String, _ key: DeviceKey, _ appAttestKeyID: String?) throws(BioAuthError) -> Void
    ) async throws(BioAuthError) -> Registration {
        // The evidence binds the key to a challenge, so the challenge comes before the key.
        let challenge = try await attestationChallenge()
        let key = try await create()
        let userID = current?.user.id ?? ""
        var registrationID: String?
        do throws(BioAuthError) {
            // App Attest evidence for this key, made against the challenge (none without one).
            let prepare = { () async -> AppAttestation.Prepared? in
                guard let challenge else { return nil }
                return await self.appAttestation.evidence(
                    publicKey: key.publicKey.canonicalBytes,
                    challenge: challenge,
                    relyingPartyID: self.configuration.relyingPartyID,
                    userID: userID
                )
            }
            var prepared = await prepare()
            var started: RegistrationStartResponse
            do throws(BioAuthError) {
                do throws(BioAuthError) {
                    let evidence = prepared?.evidence
                    started = try await withStepUp(stepUp) { () throws(BioAuthError) in try await start(key, evidence) }
                } catch
                    where prepared?.isAssertion == true && error.serverCode == .attestationRefused
                    && AppAttestation.keyRefusals.contains(error.rejection?.reason ?? "")
                {
                    // The server refused the App Attest key itself (it never verified it, or its
                    // assertion failed): a new key attests, once, against the same unspent challenge.
                    appAttestation.forget(userID)
                    prepared = await prepare()
                    let evidence = prepared?.evidence
                    started = try await withStepUp(stepUp) { () throws(BioAuthError) in try await start(key, evidence) }
                }
            } catch {
                // Refused outright (`require`): what that says of the App Attest key is kept.
                if let prepared, error.serverCode == .attestationRefused {
                    appAttestation.settle(prepared, verdict: .refused, reason: error.rejection?.reason, userID: userID)
                }
                throw error
            }
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
            if let prepared, let result = registration.attestation {
                appAttestation.settle(prepared, verdict: result.verdict, reason: result.reason, userID: userID)
            }
            let vouched = registration.attestation?.verdict == .verified ? prepared?.keyID : nil
            try keep(started.registrationID, key, vouched)
            return registration
        } catch {
            await keys.deleteKey(named: keyName)
            if let registrationID { try? await api.call(.deleteRegistration, id: registrationID, token: token) }
            throw error
        }
    }

    /// The challenge a new key's App Attest evidence is made against
    /// (`POST /v1/biometric/attestation-challenges`), or `nil` when there will be no evidence:
    /// switched off, App Attest not offered here, a server older than the endpoint (`404`), or
    /// one that does not look at evidence (`mode` `none`: App Attest is spared).
    func attestationChallenge() async throws(BioAuthError) -> Data? {
        guard appAttestation.isAvailable else { return nil }
        let answer = try await api.callIfOffered(.createAttestationChallenge, token: try requireToken(), as: AttestationChallengeResponse.self)
        guard let answer, answer.mode != .none else { return nil }
        return answer.challenge.data
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
