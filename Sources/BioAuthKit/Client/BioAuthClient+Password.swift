import Foundation

extension BioAuthClient {
    /// Creates an account (`POST /v1/users`); does not sign in.
    ///
    /// - Throws: ``BioAuthError/server(_:)`` with `invalid_username`, `invalid_password`, `username_taken`.
    @discardableResult
    public func signUp(username: String, password: String) async throws(BioAuthError) -> User {
        try await api.call(.createUser, body: CreateUserRequest(username: username, password: password), as: UserResponse.self).user
    }

    /// Signs in with the password (`POST /v1/sessions/password`).
    ///
    /// When this device lost the key of its registration for this user (an enrollment change),
    /// the stale registration is revoked on the server now, and ``SignedIn/reconciliation`` says so.
    ///
    /// - Throws: ``BioAuthError/server(_:)`` with `invalid_credentials` or `locked` (see
    ///   ``ServerRejection/retryAfterSeconds``).
    @discardableResult
    public func signIn(username: String, password: String) async throws(BioAuthError) -> SignedIn {
        let body = PasswordSignInRequest(username: username, password: password, sessionDurationMinutes: configuration.sessionDurationMinutes)
        var signedIn = await adopt(try await api.call(.signInWithPassword, body: body, as: SignInResponse.self))
        signedIn.reconciliation = try await revokeLostRegistration()
        return signedIn
    }

    /// Changes the password (`PUT /v1/users/me/password`); every other session of the user ends,
    /// this one stays. After a one-time password from a support desk this is the only thing the
    /// session may do (``Session/passwordChangeRequired``).
    ///
    /// - Parameter reauthentication: How to prove a recent sign-in if the server asks for one.
    /// - Throws: ``BioAuthError/server(_:)`` with `invalid_credentials` (wrong current password;
    ///   it counts against the lockout), `invalid_password`, `reauthentication_required`.
    public func changePassword(
        current currentPassword: String,
        new newPassword: String,
        reauthentication: Reauthentication? = nil
    ) async throws(BioAuthError) {
        try await withStepUp(reauthentication) { () throws(BioAuthError) in
            try await api.call(
                .changePassword,
                body: ChangePasswordRequest(currentPassword: currentPassword, newPassword: newPassword),
                token: try requireToken()
            )
        }
        current?.session.passwordChangeRequired = false
    }

    /// Ends every other session of the user, on every device (`DELETE /v1/sessions`); this one stays.
    public func signOutEverywhereElse() async throws(BioAuthError) {
        try await api.call(.signOutElsewhere, token: try requireToken())
    }

    /// Signs out: ends the session on the server and forgets it here (including the copy kept
    /// behind biometrics). The device key stays: biometric sign-in remains enabled.
    public func signOut() async throws(BioAuthError) {
        let token = current?.token
        current = nil
        try? await vault.delete(Self.sessionItem)
        guard let token else { return }
        do {
            try await api.call(.signOut, token: token)
        } catch  where error.serverCode == .invalidSession {
            // Already over on the server.
        }
    }
}
