import Foundation

/// Signs a user in to a BioAuth server: password, biometrics (a device key the server
/// verifies), PIN, sign-out, and keeping device and server registrations in agreement.
///
/// Every "signed in" comes from a cryptographic result (a session the server issued for a
/// password, a PIN, or a signature only the secure hardware could make), never from a
/// LocalAuthentication callback.
///
/// An actor: call it from SwiftUI (`@MainActor`) code with `await`; keychain work and prompts
/// run off the main actor.
///
/// ```swift
/// let client = BioAuthClient(configuration: .init(serverURL: url, relyingPartyID: "bank.example"), device: .apple)
/// try await client.signIn(username: name, password: password)
/// try await client.enableBiometricSignIn(prompt: "Use Face ID to sign in")
/// // next launch:
/// try await client.signInWithBiometrics(prompt: "Sign in to Bank")
/// ```
public actor BioAuthClient {
    /// What the client was configured with.
    public nonisolated let configuration: BioAuthConfiguration
    let api: APIConnection
    let vault: BiometricVault
    let keys: DeviceKeyStore
    let records: PlainRecords
    let appAttestation: AppAttestation
    let clock: any DeviceClock

    struct Current {
        var token: String
        var session: Session
        var user: User
    }

    /// The signed-in session. Any change of it (sign-out, a new sign-in, an ended session, a
    /// re-authentication, which a token's claims would then miss) drops the cached access token.
    var current: Current? {
        didSet {
            if current?.token != oldValue?.token || current?.session != oldValue?.session { accessTokens.drop() }
        }
    }

    /// The access token handed to the app's backend (``accessToken()``).
    var accessTokens = AccessTokenCache()

    /// The last reconciliation the client performed (also reported by the call that did it).
    public internal(set) var lastReconciliation: ReconciliationAction?

    static let sessionItem = "session"
    static let pinItem = "pin"
    static let enrollmentRecord = "enrollment"
    static let pinRecord = "pin-key"
    static let accountRecord = "account"

    /// A new name for a device key: every registration gets its own key.
    static func newKeyName(_ prefix: String) -> String {
        prefix + "-" + UUID().uuidString.lowercased()
    }

    /// A client for one server, on one device.
    ///
    /// - Parameters:
    ///   - device: The device services (``DeviceBackends/apple`` on iOS/macOS; a simulator in tests).
    ///   - transport: HTTP; `URLSession` by default.
    public init(configuration: BioAuthConfiguration, device: DeviceBackends, transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        api = APIConnection(baseURL: configuration.serverURL, transport: transport)
        vault = BiometricVault(service: configuration.keychainService, backends: device)
        keys = DeviceKeyStore(service: configuration.keychainService, backends: device)
        records = PlainRecords(keychain: device.keychain, service: configuration.keychainService + ".client")
        appAttestation = AppAttestation(backend: device.appAttest, records: records, enabled: configuration.appAttest)
        clock = device.clock
    }

    /// The signed-in user, if any.
    public var user: User? { current?.user }

    /// The current session, if any.
    public var session: Session? { current?.session }

    /// The bearer token of the current session, for the app's own API calls; `nil` when signed out.
    public var sessionToken: String? { current?.token }

    func requireToken() throws(BioAuthError) -> String {
        guard let token = current?.token else { throw .notSignedIn }
        return token
    }

    /// Adopts a sign-in answer as the current session and remembers the account (not a secret).
    /// The session it replaces is ended on the server: a client never leaves a live session behind.
    func adopt(_ answer: SignInResponse) async -> SignedIn {
        if let previous = current?.token, previous != answer.sessionToken {
            try? await api.call(.signOut, token: previous)
        }
        current = Current(token: answer.sessionToken, session: answer.session, user: answer.user)
        try? records.save(AccountRecord(userID: answer.user.id, username: answer.user.username), Self.accountRecord)
        return SignedIn(user: answer.user, session: answer.session)
    }

    var enrollment: EnrollmentRecord? {
        records.load(EnrollmentRecord.self, Self.enrollmentRecord)
    }

    var pinRegistration: PINRecord? {
        records.load(PINRecord.self, Self.pinRecord)
    }
}
