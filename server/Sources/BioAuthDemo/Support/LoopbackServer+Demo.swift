import BioAuthTesting

extension LoopbackServer {
    /// The relying-party id of the demo's in-process server.
    package static let demoRelyingPartyID = "demo.bioauth.example"

    /// Starts the demo's in-process server: a SQLite file (and its PIN key file) in a new
    /// temporary folder, the system's clock (which the expired-challenge attack moves forward), and
    /// bcrypt at cost 10, the floor `bioauth serve` accepts, to stay quick.
    package static func startDemo() async throws -> LoopbackServer {
        try await start(clock: .system()) { configuration in
            configuration.relyingPartyID = demoRelyingPartyID
            configuration.passwordHashCost = 10
        }
    }
}
