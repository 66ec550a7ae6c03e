import Foundation

extension BioAuthClient {
    /// Sets the signed-in user's PIN on the server (`PUT /v1/users/me/pin`) and, unless told
    /// otherwise, keeps it behind biometrics so that ``signInWithStoredPIN(prompt:)`` can use it.
    ///
    /// - Throws: ``BioAuthError/notSignedIn``; ``BioAuthError/server(_:)`` with `invalid_pin`;
    ///   the vault's errors when keeping it.
    public func setPIN(_ pin: String, keepBehindBiometrics: Bool = true) async throws(BioAuthError) {
        let token = try requireToken()
        try await api.call("PUT", "/v1/users/me/pin", body: SetPINRequest(pin: pin), token: token)
        if keepBehindBiometrics {
            try await vault.store(Data(pin.utf8), named: Self.pinItem, policy: configuration.policy)
        } else {
            try? await vault.delete(Self.pinItem)
        }
    }

    /// Signs in with a PIN the user typed (`POST /v1/sessions/pin`): the fallback when biometry
    /// is locked, canceled or changed.
    ///
    /// - Parameter username: The account; the last one signed in on this device when `nil`.
    @discardableResult
    public func signInWithPIN(_ pin: String, username: String? = nil) async throws(BioAuthError) -> SignedIn {
        guard let name = username ?? records.load(AccountRecord.self, Self.accountRecord)?.username else { throw .notSignedIn }
        let body = PINSignInRequest(username: name, pin: pin, sessionDurationMinutes: configuration.sessionDurationMinutes)
        var signedIn = adopt(try await api.call("POST", "/v1/sessions/pin", body: body, as: SignInResponse.self))
        signedIn.reconciliation = try await revokeLostRegistration()
        return signedIn
    }

    /// Signs in with the PIN kept behind biometrics: one prompt, then `POST /v1/sessions/pin`.
    @discardableResult
    public func signInWithStoredPIN(prompt: String) async throws(BioAuthError) -> SignedIn {
        guard let account = records.load(AccountRecord.self, Self.accountRecord) else { throw .itemNotFound }
        let pin = String(decoding: try await vault.read(Self.pinItem, prompt: prompt), as: UTF8.self)
        return try await signInWithPIN(pin, username: account.username)
    }
}
