import Testing
import BioAuthKit
import BioAuthServer
import BioAuthSimulator
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real BioAuth server on a loopback port over a fresh SQLite file (the pattern of the server
/// tests' `TestServer`), reached by BioAuthKit over URLSession.
struct LiveServer: Sendable {
    static let relyingPartyID = "bank.example"

    let baseURL: URL

    /// Runs `body` against a new server; the database and its folder are removed afterwards.
    static func run<T: Sendable>(
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauthkit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.databasePath = folder.appendingPathComponent("bioauth.sqlite").path
        configuration.relyingPartyID = relyingPartyID
        configuration.passwordHashCost = 4  // the floor bcrypt allows: tests stay fast
        configure(&configuration)
        let logger = Logger(label: "bioauthkit-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try await AuthServer.open(configuration: configuration, logger: logger)
        do {
            let result = try await server.application().test(.live) { client in
                guard let port = client.port else { throw URLError(.cannotConnectToHost) }
                return try await body(LiveServer(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
            }
            try await server.close()
            return result
        } catch {
            try? await server.close()
            throw error
        }
    }

    /// A client on `device` configured for this server.
    func client(
        on device: SimulatedDevice, algorithm: SignatureAlgorithm = .es256, policy: BiometricPolicy = .currentBiometrics,
        transport: any HTTPTransport = URLSessionTransport()
    ) -> BioAuthClient {
        BioAuthClient(
            configuration: BioAuthConfiguration(serverURL: baseURL, relyingPartyID: Self.relyingPartyID, keychainService: "com.example.bank",
                                                algorithm: algorithm, policy: policy),
            device: device.backends, transport: transport)
    }

    /// The server's list of the user's registrations, read directly over HTTP.
    func registrations(token: String) async throws -> [Registration] {
        let (data, response) = try await raw("GET", "/v1/biometric/registrations", token: token)
        #expect(response.statusCode == 200)
        return try WireJSON.makeDecoder().decode(RegistrationListResponse.self, from: data).registrations
    }

    /// One raw HTTP call, outside BioAuthKit.
    func raw(_ method: String, _ path: String, json: Data? = nil, token: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await URLSessionTransport().send(request)
    }
}
