import BioAuthProtocol
import Foundation

/// The contract's ceremonies as a phone performs them, signed by a ``SoftwareDeviceKey``.
extension CeremonyTransport {
    /// Creates an account.
    @discardableResult
    package func signUp(_ username: String = "alice-\(UUID().uuidString.prefix(8))", password: String = "correct horse battery") async throws -> User
    {
        try await exchange(.createUser, id: nil, body: CreateUserRequest(username: username, password: password), token: nil, as: UserResponse.self)
            .user
    }

    /// Signs in with the password.
    package func signIn(_ username: String, password: String = "correct horse battery", minutes: Int? = nil) async throws -> SignInResponse {
        try await exchange(
            .signInWithPassword,
            id: nil,
            body: PasswordSignInRequest(username: username, password: password, sessionDurationMinutes: minutes),
            token: nil,
            as: SignInResponse.self
        )
    }

    /// A new user, signed in with the password.
    package func newAccount(password: String = "correct horse battery") async throws -> SignInResponse {
        let user = try await signUp(password: password)
        return try await signIn(user.username, password: password)
    }

    /// Starts registering `key` as a biometric key of the session's user.
    package func startRegistration(
        _ key: SoftwareDeviceKey,
        token: String,
        encoding: SoftwareDeviceKey.Encoding = .x963OrRaw,
        label: String = "test phone",
        keyAttestation: KeyAttestationEvidence? = nil
    ) async throws -> RegistrationStartResponse {
        try await exchange(
            .startRegistration,
            id: nil,
            body: StartRegistrationRequest(
                algorithm: key.algorithm,
                publicKey: key.publicKey(encoding),
                label: label,
                keyAttestation: keyAttestation
            ),
            token: token,
            as: RegistrationStartResponse.self
        )
    }

    /// A challenge to make a device key with, for its hardware evidence.
    package func attestationChallenge(token: String) async throws -> AttestationChallengeResponse {
        try await exchange(.createAttestationChallenge, id: nil, body: nil, token: token, as: AttestationChallengeResponse.self)
    }

    /// Completes a started registration: `key` signs its challenge.
    @discardableResult
    package func verifyRegistration(_ start: RegistrationStartResponse, key: SoftwareDeviceKey, token: String) async throws -> Registration {
        let signature = key.sign(.registration, rpID: relyingPartyID, registrationID: start.registrationID, challenge: start.challenge.data)
        return try await exchange(
            .verifyRegistration,
            id: start.registrationID,
            body: VerifyRegistrationRequest(signature: signature),
            token: token,
            as: RegistrationResponse.self
        ).registration
    }

    /// Registers `key` for the session's user: start, sign the challenge, verify.
    @discardableResult
    package func register(
        _ key: SoftwareDeviceKey,
        token: String,
        encoding: SoftwareDeviceKey.Encoding = .x963OrRaw,
        label: String = "test phone"
    ) async throws -> Registration {
        let start = try await startRegistration(key, token: token, encoding: encoding, label: label)
        return try await verifyRegistration(start, key: key, token: token)
    }

    /// A new user, signed in with the password, with `key` registered: where most tests start.
    package func newAccountWithKey(
        _ key: SoftwareDeviceKey = .es256()
    ) async throws -> (account: SignInResponse, key: SoftwareDeviceKey, registration: Registration) {
        let account = try await newAccount()
        return (account, key, try await register(key, token: account.sessionToken))
    }

    /// A fresh authentication challenge for a registration.
    package func challenge(for registrationID: String) async throws -> ChallengeResponse {
        try await exchange(
            .createChallenge,
            id: nil,
            body: CreateChallengeRequest(registrationID: registrationID),
            token: nil,
            as: ChallengeResponse.self
        )
    }

    /// The biometric sign-in body for a fresh challenge, signed by `key`.
    package func signedAuthentication(_ key: SoftwareDeviceKey, registrationID: String) async throws -> BiometricSignInRequest {
        let challenge = try await challenge(for: registrationID)
        return BiometricSignInRequest(
            challengeID: challenge.challengeID,
            signature: key.sign(.authentication, rpID: relyingPartyID, registrationID: registrationID, challenge: challenge.challenge.data)
        )
    }

    /// One biometric sign-in: a challenge, `key`'s signature, the session.
    @discardableResult
    package func biometricSignIn(_ key: SoftwareDeviceKey, registrationID: String) async throws -> SignInResponse {
        try await exchange(
            .signInWithBiometric,
            id: nil,
            body: try await signedAuthentication(key, registrationID: registrationID),
            token: nil,
            as: SignInResponse.self
        )
    }

    /// Sets a PIN bound to `key`: `PUT /v1/users/me/pin`, sign the registration challenge, verify.
    @discardableResult
    package func setPIN(
        _ pin: String,
        key: SoftwareDeviceKey = .es256(),
        token: String,
        keyAttestation: KeyAttestationEvidence? = nil
    ) async throws -> PINDevice {
        let start = try await exchange(
            .setPin,
            id: nil,
            body: SetPINRequest(pin: pin, algorithm: key.algorithm, publicKey: key.publicKey(), keyAttestation: keyAttestation),
            token: token,
            as: RegistrationStartResponse.self
        )
        try await verifyRegistration(start, key: key, token: token)
        return PINDevice(key: key, registrationID: start.registrationID)
    }

    /// The PIN sign-in body: a fresh challenge for the PIN key, signed by `key` (the device's own
    /// key unless a test forges another), and the PIN.
    package func pinSignInBody(_ device: PINDevice, pin: String, signingKey: SoftwareDeviceKey? = nil) async throws -> PINSignInRequest {
        let challenge = try await challenge(for: device.registrationID)
        let signature = (signingKey ?? device.key).sign(
            .authentication,
            rpID: relyingPartyID,
            registrationID: device.registrationID,
            challenge: challenge.challenge.data
        )
        return PINSignInRequest(challengeID: challenge.challengeID, signature: signature, pin: pin)
    }
}

/// A PIN as a device holds it: the PIN key and its registration.
package struct PINDevice: Sendable {
    /// The key the PIN is bound to.
    package var key: SoftwareDeviceKey
    /// Its registration.
    package var registrationID: String

    /// A PIN key and its registration.
    package init(key: SoftwareDeviceKey, registrationID: String) {
        self.key = key
        self.registrationID = registrationID
    }
}
