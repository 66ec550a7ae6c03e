import BioAuthKit
import BioAuthProtocol
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

/// BioAuthKit's App Attest evidence, judged by the server's own verifier (a server run with
/// `--key-attestation require`, the test authority's root in place of Apple's).
@Suite("BioAuthKit: App Attest against the server")
struct ClientAppAttestTests {
    static let appID = "ABCDE12345.com.example.bank"
    static let authority = try! AppAttestAuthority(validity: Date().addingTimeInterval(-86_400)...Date().addingTimeInterval(86_400 * 365))

    static func withServer(_ body: (LoopbackServer) async throws -> Void) async throws {
        let server = try await LoopbackServer.start(appAttestRoots: [authority.root]) { configuration in
            configuration.keyAttestation = .require
            configuration.appAttestAppIDs = [appID]
        }
        do {
            try await body(server)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
    }

    @Test("under require, a phone with App Attest registers its biometric key (attested), then its PIN key (asserted), both verified")
    func registersWithEvidence() async throws {
        try await Self.withServer { server in
            let device = SimulatedDevice(appAttest: AppAttestMaker(authority: Self.authority, appID: Self.appID))
            let account = try await Account.signedIn(on: server, device: device)
            let registration = try await account.enableBiometrics()
            #expect(
                registration.attestation
                    == KeyAttestationResult(format: "apple-app-attest", verdict: .verified, securityLevel: "Secure Enclave", app: Self.appID)
            )
            device.willAnswer(.present("owner"))
            try await account.client.setPIN("4822")
            let listed = try await server.registrations(token: try await account.token())
            #expect(listed.count == 2 && listed.allSatisfy { $0.attestation?.verdict == .verified }, "\(listed.map(\.attestation))")
            let service = try #require(device.appAttest)
            #expect(service.generatedKeyIDs.count == 1 && service.attestations.count == 1 && service.assertions.count == 1)
        }
    }

    @Test(
        "under require, a phone without App Attest (or an app App Attest does not vouch for) cannot register: attestation_required, attestation_refused"
    )
    func refusedWithoutEvidence() async throws {
        try await Self.withServer { server in
            let bare = try await Account.signedIn(on: server, device: SimulatedDevice())
            let missing = await #expect(throws: BioAuthError.self) { try await bare.enableBiometrics() }
            #expect(missing?.serverCode == .attestationRequired)
            let other = SimulatedDevice(appAttest: AppAttestMaker(authority: Self.authority, appID: "VWXYZ67890.com.example.clone"))
            let clone = try await Account.signedIn(on: server, device: other)
            let refused = await #expect(throws: BioAuthError.self) { try await clone.enableBiometrics() }
            #expect(refused?.serverCode == .attestationRefused && refused?.rejection?.reason == "app_not_allowed")
        }
    }
}
