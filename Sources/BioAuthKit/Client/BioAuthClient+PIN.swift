import Foundation

extension BioAuthClient {
    /// Sets the signed-in user's PIN, bound to this device: creates a device key that needs no
    /// biometric match (the PIN is the user check) in the Secure Enclave, sends it with the PIN
    /// (`PUT /v1/users/me/pin`), and proves possession by signing the registration challenge
    /// (`POST /v1/biometric/registrations/{id}/verify`); the PIN works from then on, on this device
    /// only, and any PIN set earlier (here or on another device) stops working. Unless told
    /// otherwise, the PIN is also kept behind biometrics for ``signInWithStoredPIN(prompt:)``.
    ///
    /// - Parameter reauthentication: How to prove a recent sign-in if the server asks for one
    ///   (`reauthentication_required`); without it that error is thrown.
    /// - Throws: ``BioAuthError/notSignedIn``; ``BioAuthError/server(_:)`` with `invalid_pin`,
    ///   `pin_too_common`, `reauthentication_required`; the device's errors.
    public func setPIN(_ pin: String, keepBehindBiometrics: Bool = true, reauthentication: Reauthentication? = nil) async throws(BioAuthError) {
        let token = try requireToken()
        guard let user = current?.user else { throw .notSignedIn }
        let previous = pinRegistration
        let keyName = Self.newKeyName("pin-key")
        _ = try await registerKey(named: keyName, token: token, prompt: "", stepUp: reauthentication) { () throws(BioAuthError) in
            try await keys.createPossessionKey(named: keyName)
        } start: { key, evidence throws(BioAuthError) in
            try await api.call(
                .setPin,
                body: SetPINRequest(pin: pin, algorithm: key.algorithm, publicKey: key.publicKey.canonicalBytes, keyAttestation: evidence),
                token: try requireToken(),
                as: RegistrationStartResponse.self
            )
        } keep: { registrationID, _, appAttestKeyID throws(BioAuthError) in
            try records.save(
                PINRecord(
                    userID: user.id,
                    username: user.username,
                    registrationID: registrationID,
                    keyName: keyName,
                    appAttestKeyID: appAttestKeyID
                ),
                Self.pinRecord
            )
        }
        // The server revoked the previous PIN key when this one was verified.
        if let previous { await keys.deleteKey(named: previous.keyName) }
        if keepBehindBiometrics {
            try await vault.store(Data(pin.utf8), named: Self.pinItem, policy: configuration.policy)
        } else {
            try? await vault.delete(Self.pinItem)
        }
    }

    /// Whether a PIN is set on this device (it may still have been replaced on another one).
    public var isPINSet: Bool { pinRegistration != nil }

    /// Signs in with a PIN the user typed: this device's PIN key signs a fresh challenge (no
    /// prompt) and the server checks the PIN only after that signature (`POST /v1/sessions/pin`).
    /// The fallback when biometry is locked, canceled or changed.
    ///
    /// - Throws: ``BioAuthError/itemNotFound`` when no PIN is set on this device (also after the
    ///   server dropped it: the PIN was set on another device or revoked); ``BioAuthError/server(_:)``
    ///   with `invalid_credentials`, `locked` (see ``ServerRejection/retryAfterSeconds``) or
    ///   `pin_locked` (sign in with the password).
    @discardableResult
    public func signInWithPIN(_ pin: String) async throws(BioAuthError) -> SignedIn {
        guard let record = pinRegistration else { throw .itemNotFound }
        let challenge: (id: String, message: SignedMessage)
        do {
            challenge = try await authenticationChallenge(for: record.registrationID)
        } catch  where error.serverCode == .registrationNotFound {
            await removeLocalPIN()
            throw .itemNotFound
        }
        let signature: Data
        do {
            signature = try await keys.sign(challenge.message, withKeyNamed: record.keyName, prompt: "")
        } catch .itemNotFound {
            await removeLocalPIN()
            throw .itemNotFound
        }
        let body = PINSignInRequest(
            challengeID: challenge.id,
            signature: signature,
            pin: pin,
            sessionDurationMinutes: configuration.sessionDurationMinutes
        )
        var signedIn = await adopt(try await api.call(.signInWithPin, body: body, as: SignInResponse.self))
        signedIn.reconciliation = try await revokeLostRegistration()
        return signedIn
    }

    /// Signs in with the PIN kept behind biometrics: one prompt releases the PIN, then
    /// ``signInWithPIN(_:)``.
    @discardableResult
    public func signInWithStoredPIN(prompt: String) async throws(BioAuthError) -> SignedIn {
        guard pinRegistration != nil else { throw .itemNotFound }
        let pin = String(decoding: try await vault.read(Self.pinItem, prompt: prompt), as: UTF8.self)
        return try await signInWithPIN(pin)
    }

    /// Forgets the PIN on this device: its key, its record, the copy behind biometrics.
    func removeLocalPIN() async {
        if let record = pinRegistration { await keys.deleteKey(named: record.keyName) }
        records.delete(Self.pinRecord)
        try? await vault.delete(Self.pinItem)
    }
}
