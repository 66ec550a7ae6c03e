import Foundation

extension BioAuthClient {
    /// Renews the current session's primary authentication with the password
    /// (`POST /v1/sessions/current/reauthenticate`), for a credential change that follows.
    ///
    /// - Throws: ``BioAuthError/notSignedIn``; ``BioAuthError/server(_:)`` with
    ///   `invalid_credentials` or `locked` (a wrong password counts against the lockout).
    public func reauthenticate(password: String) async throws(BioAuthError) {
        let answer = try await api.call(
            .reauthenticate,
            body: ReauthenticateRequest(password: password),
            token: try requireToken(),
            as: CurrentSessionResponse.self
        )
        current?.session = answer.session
    }

    /// Renews the current session's primary authentication with a biometric signature: one
    /// prompt, with this device's biometric key over a fresh challenge.
    ///
    /// - Throws: ``BioAuthError/itemNotFound`` when biometric sign-in is not enabled here; the
    ///   prompt's and the server's errors.
    public func reauthenticateWithBiometrics(prompt: String) async throws(BioAuthError) {
        let token = try requireToken()
        guard let record = enrollment, record.lost == nil, record.userID == current?.user.id else { throw .itemNotFound }
        let challenge = try await authenticationChallenge(for: record.registrationID)
        let signature = try await keys.sign(challenge.message, withKeyNamed: record.keyName, prompt: prompt)
        let answer = try await api.call(
            .reauthenticate,
            body: ReauthenticateRequest(challengeID: challenge.id, signature: signature),
            token: token,
            as: CurrentSessionResponse.self
        )
        current?.session = answer.session
    }

    /// Runs `operation`; when the server answers `reauthentication_required`, re-authenticates
    /// as `reauthentication` says and runs it once more.
    func withStepUp<T: Sendable>(
        _ reauthentication: Reauthentication?,
        _ operation: () async throws(BioAuthError) -> T
    ) async throws(BioAuthError) -> T {
        do {
            return try await operation()
        } catch  where error.serverCode == .reauthenticationRequired {
            guard let reauthentication else { throw error }
            try await reauthenticate(reauthentication)
            return try await operation()
        }
    }

    private func reauthenticate(_ reauthentication: Reauthentication) async throws(BioAuthError) {
        switch reauthentication {
        case .biometrics(let prompt):
            try await reauthenticateWithBiometrics(prompt: prompt)
        case .password(let ask):
            guard let password = await ask() else { throw .userCanceled }
            try await reauthenticate(password: password)
        case .biometricsOrPassword(let prompt, let ask):
            if let record = enrollment, record.lost == nil, await keys.usability(ofKeyNamed: record.keyName) == .usable {
                try await reauthenticateWithBiometrics(prompt: prompt)
            } else {
                try await self.reauthenticate(.password(ask))
            }
        }
    }
}
