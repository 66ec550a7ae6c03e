import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation

/// A user with a password, signed up and signed in on a simulated phone.
struct Account {
    static let password = "correct horse battery"

    let server: LoopbackServer
    let device: SimulatedDevice
    let client: BioAuthClient
    let username: String

    /// Signs up a fresh user and signs in with the password.
    static func signedIn(
        on server: LoopbackServer,
        device: SimulatedDevice = SimulatedDevice(),
        algorithm: SignatureAlgorithm = .es256,
        policy: BiometricPolicy = .currentBiometrics,
        transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> Account {
        let client = server.client(on: device, algorithm: algorithm, policy: policy, transport: transport)
        let username = "user-\(UUID().uuidString.prefix(8).lowercased())"
        try await client.signUp(username: username, password: password)
        try await client.signIn(username: username, password: password)
        return Account(server: server, device: device, client: client, username: username)
    }

    /// Enables biometric sign-in: the owner answers the one prompt.
    @discardableResult
    func enableBiometrics(label: String? = nil) async throws -> Registration {
        device.willAnswer(.present("owner"))
        return try await client.enableBiometricSignIn(label: label, prompt: "Enable Face ID sign-in")
    }

    /// Enables biometric sign-in and signs out.
    func enableBiometricsAndSignOut() async throws -> Registration {
        let registration = try await enableBiometrics(label: "test phone")
        try await client.signOut()
        return registration
    }

    /// The current token, or a fresh password session's.
    func token() async throws -> String {
        if let token = await client.sessionToken { return token }
        try await client.signIn(username: username, password: Self.password)
        return await client.sessionToken!
    }
}
