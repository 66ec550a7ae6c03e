import BioAuthProtocol
import Foundation
import Testing

/// The mission's steps as one-liners, for tests that need them as set-up.
extension APIClient {
    @discardableResult
    func signUp(_ username: String = "alice-\(UUID().uuidString.prefix(8))", password: String = "correct horse battery") async throws -> User {
        try await expect(.created, UserResponse.self, .post, "/v1/users", json: CreateUserRequest(username: username, password: password)).user
    }

    func signIn(_ username: String, password: String = "correct horse battery", minutes: Int? = nil) async throws -> SignInResponse {
        try await expect(.ok, SignInResponse.self, .post, "/v1/sessions/password",
                         json: PasswordSignInRequest(username: username, password: password, sessionDurationMinutes: minutes))
    }

    /// A new user, signed in with the password.
    func newAccount(password: String = "correct horse battery") async throws -> SignInResponse {
        let user = try await signUp(password: password)
        return try await signIn(user.username, password: password)
    }

    /// Registers `key` for the session's user: start, sign the challenge, verify.
    @discardableResult
    func register(_ key: TestDeviceKey, token: String, encoding: TestDeviceKey.Encoding = .x963OrRaw) async throws -> Registration {
        let start = try await startRegistration(key, token: token, encoding: encoding)
        let signature = key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)
        return try await expect(.ok, RegistrationResponse.self, .post, "/v1/biometric/registrations/\(start.registrationID)/verify",
                                json: VerifyRegistrationRequest(signature: signature), token: token).registration
    }

    func startRegistration(_ key: TestDeviceKey, token: String, encoding: TestDeviceKey.Encoding = .x963OrRaw) async throws -> RegistrationStartResponse {
        try await expect(.created, RegistrationStartResponse.self, .post, "/v1/biometric/registrations",
                         json: StartRegistrationRequest(algorithm: key.algorithm, publicKey: key.publicKey(encoding), label: "test phone"), token: token)
    }

    func challenge(for registrationID: String) async throws -> ChallengeResponse {
        try await expect(.created, ChallengeResponse.self, .post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: registrationID))
    }

    /// The biometric sign-in body for a fresh challenge, signed by `key`.
    func signedAuthentication(_ key: TestDeviceKey, registrationID: String) async throws -> BiometricSignInRequest {
        let challenge = try await challenge(for: registrationID)
        return BiometricSignInRequest(
            challengeID: challenge.challengeID,
            signature: key.sign(.authentication, registrationID: registrationID, challenge: challenge.challenge.data))
    }

    func biometricSignIn(_ key: TestDeviceKey, registrationID: String) async throws -> SignInResponse {
        try await expect(.ok, SignInResponse.self, .post, "/v1/sessions/biometric",
                         json: try await signedAuthentication(key, registrationID: registrationID))
    }
}
