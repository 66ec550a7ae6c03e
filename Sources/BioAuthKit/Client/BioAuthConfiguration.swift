import Foundation

/// What a ``BioAuthClient`` needs to know about its server and its device storage.
public struct BioAuthConfiguration: Sendable {
    /// The server's base URL, e.g. `https://auth.bank.example`.
    public var serverURL: URL
    /// The relying-party id the server is configured with; it is part of every signed message.
    public var relyingPartyID: String
    /// The keychain service every item and key of this client lives under.
    public var keychainService: String
    /// The algorithm of the device key: ES256 (Secure Enclave, default) or Ed25519 (opt-in).
    public var algorithm: SignatureAlgorithm
    /// What releases the device key and the stored secrets; ``BiometricPolicy/currentBiometrics``
    /// unless you opt into another.
    public var policy: BiometricPolicy
    /// Requested session lifetime in minutes (5…43200); the server's default when `nil`.
    public var sessionDurationMinutes: Int?
    /// Whether a new device key carries App Attest evidence (`DCAppAttestService`) where the
    /// device offers it: on by default. The server's `--key-attestation` policy decides what the
    /// evidence is worth; it is never required on the client's side (docs/BIOAUTHKIT.md,
    /// "Hardware evidence").
    public var appAttest: Bool

    /// Describes a client.
    public init(
        serverURL: URL,
        relyingPartyID: String,
        keychainService: String = "bioauth",
        algorithm: SignatureAlgorithm = .es256,
        policy: BiometricPolicy = .currentBiometrics,
        sessionDurationMinutes: Int? = nil,
        appAttest: Bool = true
    ) {
        self.serverURL = serverURL
        self.relyingPartyID = relyingPartyID
        self.keychainService = keychainService
        self.algorithm = algorithm
        self.policy = policy
        self.sessionDurationMinutes = sessionDurationMinutes
        self.appAttest = appAttest
    }
}
