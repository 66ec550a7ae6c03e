import BioAuthProtocol
import BioAuthTesting

/// A simulated phone: a P-256 key registered with the server, as BioAuthKit keeps one in the
/// Secure Enclave, used after a biometric match that the benchmark takes as given.
struct BenchDevice: Sendable {
    let key: SoftwareDeviceKey
    let registrationID: String
    /// The account's user id.
    let userID: String
    /// The account's session from its enrollment, which approves its confirmations.
    let sessionToken: String

    /// Registers a new key for the account `signedIn` signed in to: start, sign the registration
    /// challenge, verify.
    static func register(over phone: PhoneConnection, signedIn: SignInResponse) async throws -> BenchDevice {
        let key = SoftwareDeviceKey.es256()
        let registration = try await phone.register(key, token: signedIn.sessionToken, label: "bench")
        return BenchDevice(key: key, registrationID: registration.id, userID: signedIn.user.id, sessionToken: signedIn.sessionToken)
    }

    /// One biometric sign-in: ask for a challenge, sign it, complete.
    func signIn(over phone: PhoneConnection) async throws {
        try await phone.biometricSignIn(key, registrationID: registrationID)
    }

    /// One confirmation: the bank's backend (service `credential`) asks this device's account to
    /// confirm a payment, and the device approves it (a challenge, the signature over its details).
    func confirm(over phone: PhoneConnection, credential: String) async throws {
        let details = ConfirmationDetails.payment(amount: "12.50", currency: "EUR", payeeName: "Bench Payee", reference: "bench")
        let confirmation = try await phone.createConfirmation(details, for: userID, credential: credential)
        try await phone.approveConfirmation(confirmation, key: key, registrationID: registrationID, token: sessionToken)
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
