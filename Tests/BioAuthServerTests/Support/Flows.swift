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

/// A PIN as a device holds it: the PIN key and its registration.
struct TestPINDevice: Sendable {
    var key: TestDeviceKey
    var registrationID: String
}

extension APIClient {
    /// Sets a PIN bound to `key`: `PUT /v1/users/me/pin`, sign the registration challenge, verify.
    @discardableResult
    func setPIN(_ pin: String, key: TestDeviceKey = .es256(), token: String) async throws -> TestPINDevice {
        let start = try await expect(.created, RegistrationStartResponse.self, .put, "/v1/users/me/pin",
                                     json: SetPINRequest(pin: pin, algorithm: key.algorithm, publicKey: key.publicKey()), token: token)
        let signature = key.sign(.registration, registrationID: start.registrationID, challenge: start.challenge.data)
        _ = try await expect(.ok, RegistrationResponse.self, .post, "/v1/biometric/registrations/\(start.registrationID)/verify",
                             json: VerifyRegistrationRequest(signature: signature), token: token)
        return TestPINDevice(key: key, registrationID: start.registrationID)
    }

    /// The PIN sign-in body: a fresh challenge for the PIN key, signed by `key` (the device's own
    /// key unless a test forges another), and the PIN.
    func pinSignInBody(_ device: TestPINDevice, pin: String, signingKey: TestDeviceKey? = nil) async throws -> PINSignInRequest {
        let challenge = try await challenge(for: device.registrationID)
        let signature = (signingKey ?? device.key).sign(.authentication, registrationID: device.registrationID, challenge: challenge.challenge.data)
        return PINSignInRequest(challengeID: challenge.challengeID, signature: signature, pin: pin)
    }

    /// `POST /v1/sessions/pin` with a fresh signed challenge: the raw answer.
    @discardableResult
    func pinSignIn(_ device: TestPINDevice, pin: String) async throws -> APIResponse {
        try await call(.post, "/v1/sessions/pin", json: try await pinSignInBody(device, pin: pin))
    }
}
