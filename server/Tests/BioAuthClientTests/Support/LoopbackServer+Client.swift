import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// BioAuthKit against a loopback server over URLSession, and the raw HTTP a test checks the
/// server's side with.
extension LoopbackServer {
    /// A client on `device` configured for this server.
    func client(
        on device: SimulatedDevice,
        algorithm: SignatureAlgorithm = .es256,
        policy: BiometricPolicy = .currentBiometrics,
        transport: any HTTPTransport = URLSessionTransport()
    ) -> BioAuthClient {
        BioAuthClient(
            configuration: BioAuthConfiguration(
                serverURL: baseURL,
                relyingPartyID: configuration.relyingPartyID,
                keychainService: "com.example.bank",
                algorithm: algorithm,
                policy: policy
            ),
            device: device.backends,
            transport: transport
        )
    }

    /// The server's list of the user's registrations, read directly over HTTP.
    func registrations(token: String) async throws -> [Registration] {
        let (data, response) = try await raw(.listRegistrations, token: token)
        #expect(response.statusCode == 200)
        return try WireJSON.makeDecoder().decode(RegistrationListResponse.self, from: data).registrations
    }

    /// One raw HTTP call, outside BioAuthKit.
    func raw(_ endpoint: Endpoint, id: String? = nil, json: Data? = nil, token: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + endpoint.path(id))!)
        request.httpMethod = endpoint.method.rawValue
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = json
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await URLSessionTransport().send(request)
    }
}
