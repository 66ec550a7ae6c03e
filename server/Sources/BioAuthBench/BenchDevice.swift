import BioAuthProtocol
import BioAuthTesting

/// A simulated phone: a P-256 key registered with the server, as BioAuthKit keeps one in the
/// Secure Enclave, used after a biometric match that the benchmark takes as given.
struct BenchDevice: Sendable {
    let key: SoftwareDeviceKey
    let registrationID: String

    /// Registers a new key for the account `token` signs in as: start, sign the registration
    /// challenge, verify.
    static func register(over phone: PhoneConnection, token: String) async throws -> BenchDevice {
        let key = SoftwareDeviceKey.es256()
        let registration = try await phone.register(key, token: token, label: "bench")
        return BenchDevice(key: key, registrationID: registration.id)
    }

    /// One biometric sign-in: ask for a challenge, sign it, complete.
    func signIn(over phone: PhoneConnection) async throws {
        try await phone.biometricSignIn(key, registrationID: registrationID)
    }
}

/// A bench connection speaking for phones of the bench server's relying party: the shared
/// ceremonies (BioAuthTesting) run over it.
struct PhoneConnection: CeremonyTransport {
    let http: HTTPConnection
    let relyingPartyID: String

    func exchange<Answer: Decodable>(_ request: CeremonyRequest, as answer: Answer.Type) async throws -> Answer {
        try await http.exchange(request.endpoint, id: request.id, request.body, as: answer, bearer: request.token)
    }
}
