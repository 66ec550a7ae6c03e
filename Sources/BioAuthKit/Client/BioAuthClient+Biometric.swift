import Foundation

extension BioAuthClient {
    /// Enables biometric sign-in for the signed-in user: creates a device key behind biometrics,
    /// registers it (`POST /v1/biometric/registrations`), proves possession by signing the
    /// registration challenge (one prompt) and verifies it; then keeps the session token and the
    /// registration id behind biometrics. A previous registration of this device is revoked once
    /// the new one is active (the current session survives, even if the old key signed it in).
    ///
    /// Registering a key needs a recent sign-in. When the server asks for one, the client
    /// re-authenticates as `reauthentication` says (by default with the previous biometric key,
    /// if this device has one, showing `prompt`) and tries once more.
    ///
    /// - Throws: ``BioAuthError/notSignedIn``, the device's errors (``BioAuthError/passcodeNotSet``,
    ///   ``BioAuthError/biometryNotEnrolled``, ``BioAuthError/userCanceled``, …) or the server's
    ///   (`reauthentication_required` when no way to re-authenticate was given or possible).
    @discardableResult
    public func enableBiometricSignIn(
        label: String? = nil,
        prompt: String,
        reauthentication: Reauthentication? = nil
    ) async throws(BioAuthError) -> Registration {
        let token = try requireToken()
        guard let user = current?.user else { throw .notSignedIn }
        let previous = enrollment
        let stepUp = reauthentication ?? previous.flatMap { $0.lost == nil && $0.userID == user.id ? .biometrics(prompt: prompt) : nil }
        let keyName = Self.newKeyName("device-key")
        let registration = try await registerKey(named: keyName, token: token, prompt: prompt, stepUp: stepUp) { () throws(BioAuthError) in
            try await keys.createKey(named: keyName, algorithm: configuration.algorithm, policy: configuration.policy)
        } start: { key, evidence throws(BioAuthError) in
            try await api.call(
                .startRegistration,
                body: StartRegistrationRequest(
                    algorithm: key.algorithm,
                    publicKey: key.publicKey.canonicalBytes,
                    label: label,
                    keyAttestation: evidence
                ),
                token: try requireToken(),
                as: RegistrationStartResponse.self
            )
        } keep: { registrationID, key, appAttestKeyID throws(BioAuthError) in
            try records.save(
                EnrollmentRecord(
                    userID: user.id,
                    username: user.username,
                    registrationID: registrationID,
                    algorithm: key.algorithm,
                    keyName: keyName,
                    appAttestKeyID: appAttestKeyID
                ),
                Self.enrollmentRecord
            )
        }
        if let previous {
            // Replaced: the old registration goes on the server (this session is spared), its key here.
            try? await api.call(.deleteRegistration, id: previous.registrationID, token: try requireToken())
            await keys.deleteKey(named: previous.keyName)
        }
        try await storeSession(token: try requireToken(), registrationID: registration.id)
        return registration
    }

    /// What this device offers for biometric sign-in with this client's algorithm and policy:
    /// the sensor (for the button's label) and whether sign-in can be turned on now, or why not;
    /// never prompts.
    public func biometricAvailability() -> BiometricAvailability {
        keys.availability(algorithm: configuration.algorithm, policy: configuration.policy)
    }

    /// Whether biometric sign-in is enabled and usable on this device; never prompts. Not whether
    /// the key exists: whether it can still sign (``DeviceKeyStore``'s usability: the key's
    /// reference, and a signature that may not show UI). A key an enrollment change invalidated is
    /// recorded as lost, so that the next password sign-in or ``reconcile()`` revokes its
    /// registration.
    public func isBiometricSignInEnabled() async -> Bool {
        guard let record = enrollment, record.lost == nil else { return false }
        guard case .lost(let loss) = await keys.usability(ofKeyNamed: record.keyName) else { return true }
        _ = await markLost(record, loss)
        return false
    }

    /// Signs in with biometrics: asks the server for a challenge, signs it with the device key
    /// (exactly one prompt), and exchanges the signature for a new session.
    ///
    /// - Throws:
    ///   - ``BioAuthError/biometryChanged``: the enrolled biometry changed, the key is gone. Sign in
    ///     with the password; that call revokes the stale registration on the server.
    ///   - ``BioAuthError/itemNotFound``: biometric sign-in is not enabled (or the key was lost).
    ///   - ``BioAuthError/server(_:)`` with `registration_not_found`: the server revoked the
    ///     registration; the local key was deleted (``lastReconciliation`` says so).
    ///   - ``BioAuthError/userCanceled``, ``BioAuthError/biometryLockout``, … from the prompt.
    @discardableResult
    public func signInWithBiometrics(prompt: String) async throws(BioAuthError) -> SignedIn {
        guard let record = enrollment else { throw .itemNotFound }
        if let lost = record.lost { throw lost == .biometryChanged ? .biometryChanged : .itemNotFound }
        // The key first, without a prompt; a moved domain state only explains why it failed.
        if case .lost(let loss) = await keys.usability(ofKeyNamed: record.keyName) { throw await markLost(record, loss) }

        let challenge: (id: String, message: SignedMessage)
        do {
            challenge = try await authenticationChallenge(for: record.registrationID)
        } catch  where error.serverCode == .registrationNotFound {
            await removeLocalRegistration()
            lastReconciliation = .localRegistrationRemoved(registrationID: record.registrationID)
            throw error
        }
        let signature: Data
        do {
            signature = try await keys.sign(challenge.message, withKeyNamed: record.keyName, prompt: prompt)
        } catch .biometryChanged {
            throw await markLost(record, .biometryChanged)
        } catch .itemNotFound {
            throw await markLost(record, .keyMissing)
        }
        let answer = try await api.call(
            .signInWithBiometric,
            body: BiometricSignInRequest(
                challengeID: challenge.id,
                signature: signature,
                sessionDurationMinutes: configuration.sessionDurationMinutes
            ),
            as: SignInResponse.self
        )
        let signedIn = await adopt(answer)
        try? await storeSession(token: answer.sessionToken, registrationID: record.registrationID)
        return signedIn
    }

    /// Restores the session kept behind biometrics (one prompt) and checks it with the server
    /// (`GET /v1/sessions/current`), without a new sign-in.
    ///
    /// - Throws: ``BioAuthError/server(_:)`` with `invalid_session` when the session ended (the
    ///   stored copy is then deleted); the vault's errors otherwise.
    @discardableResult
    public func restoreSession(prompt: String) async throws(BioAuthError) -> SignedIn {
        let data = try await vault.read(Self.sessionItem, prompt: prompt)
        guard let stored = try? JSONDecoder().decode(StoredSession.self, from: data) else { throw .itemNotFound }
        do {
            let answer = try await api.call(.getCurrentSession, token: stored.sessionToken, as: CurrentSessionResponse.self)
            current = Current(token: stored.sessionToken, session: answer.session, user: answer.user)
            return SignedIn(user: answer.user, session: answer.session)
        } catch  where error.serverCode == .invalidSession {
            try? await vault.delete(Self.sessionItem)
            throw error
        }
    }

    /// Disables biometric sign-in: revokes the registration on the server (which ends the
    /// sessions it created) AND deletes the local key and the secrets kept for it.
    ///
    /// - Throws: ``BioAuthError/notSignedIn``; the server's errors (a registration the server no
    ///   longer knows is not an error).
    public func disableBiometricSignIn() async throws(BioAuthError) {
        let token = try requireToken()
        if let record = enrollment {
            do {
                try await api.call(.deleteRegistration, id: record.registrationID, token: token)
            } catch  where error.serverCode == .registrationNotFound {
                // Already gone on the server.
            }
        }
        await removeLocalRegistration()
    }

    // MARK: internals

    func storeSession(token: String, registrationID: String?) async throws(BioAuthError) {
        let data = (try? JSONEncoder().encode(StoredSession(sessionToken: token, registrationID: registrationID))) ?? Data()
        try await vault.store(data, named: Self.sessionItem, policy: configuration.policy)
    }

    /// Records that the device lost the key and deletes what is left of it locally; the
    /// registration id stays recorded until the server revocation succeeds.
    func markLost(_ record: EnrollmentRecord, _ loss: LocalKeyLoss) async -> BioAuthError {
        var record = record
        record.lost = loss
        try? records.save(record, Self.enrollmentRecord)
        await keys.deleteKey(named: record.keyName)
        try? await vault.delete(Self.sessionItem)
        if loss == .keyMissing, keys.core.passcodeMissing() { return .passcodeNotSet }
        return loss == .biometryChanged ? .biometryChanged : .itemNotFound
    }

    func removeLocalRegistration() async {
        if let record = enrollment { await keys.deleteKey(named: record.keyName) }
        try? await vault.delete(Self.sessionItem)
        records.delete(Self.enrollmentRecord)
    }
}
