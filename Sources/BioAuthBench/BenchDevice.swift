import BioAuthProtocol
import Crypto
import Foundation

/// A simulated phone: a P-256 key registered with the server, as BioAuthKit keeps one in the
/// Secure Enclave, used after a biometric match that the benchmark takes as given.
///
/// `@unchecked`: swift-crypto's private key is an immutable value that it does not mark
/// `Sendable` on Linux; it is only read (signing), from one connection at a time or several.
struct BenchDevice: @unchecked Sendable {
    let key: P256.Signing.PrivateKey
    let registrationID: String

    /// Registers a new key for the account `token` signs in as: start, sign the registration
    /// challenge, verify.
    static func register(over http: HTTPConnection, token: String, relyingParty: String) async throws -> BenchDevice {
        let key = P256.Signing.PrivateKey()
        let start = try await http.post(
            Endpoint.startRegistration.path(), StartRegistrationRequest(algorithm: .es256, publicKey: key.publicKey.x963Representation, label: "bench"),
            as: RegistrationStartResponse.self, bearer: token)
        let message = try SignedMessage(ceremony: .registration, relyingPartyID: relyingParty, registrationID: start.registrationID,
                                        challenge: start.challenge.data).encoded()
        _ = try await http.post(
            Endpoint.verifyRegistration.path(start.registrationID),
            VerifyRegistrationRequest(signature: try key.signature(for: message).derRepresentation),
            as: RegistrationResponse.self, bearer: token)
        return BenchDevice(key: key, registrationID: start.registrationID)
    }

    /// One biometric sign-in: ask for a challenge, sign it, complete.
    func signIn(over http: HTTPConnection, relyingParty: String) async throws {
        let challenge = try await http.post(
            Endpoint.createChallenge.path(), CreateChallengeRequest(registrationID: registrationID), as: ChallengeResponse.self)
        let message = try SignedMessage(ceremony: .authentication, relyingPartyID: relyingParty, registrationID: registrationID,
                                        challenge: challenge.challenge.data).encoded()
        _ = try await http.post(
            Endpoint.signInWithBiometric.path(),
            BiometricSignInRequest(challengeID: challenge.challengeID, signature: try key.signature(for: message).derRepresentation),
            as: SignInResponse.self)
    }
}
