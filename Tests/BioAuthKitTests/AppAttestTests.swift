@_spi(DeviceSeam) import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// App Attest evidence for new device keys (docs/PROTOCOL.md §4.1, "Hardware evidence"): when the
/// client attests, when it asserts, what it keeps, and when it sends nothing.
@Suite("App Attest: the evidence a new device key carries")
struct AppAttestTests {
    /// A signed-in client on a device with App Attest, and the server it talks to.
    struct Fixture {
        let device: SimulatedDevice
        let server: AppAttestServer
        let client: BioAuthClient

        var service: SimulatedAppAttest { device.appAttest! }

        init(appAttest: Bool = true, maker: Bool = true, mode: AppAttestServer.Mode = .prefer) async throws {
            device = SimulatedDevice(appAttest: maker ? FakeAppAttestMaker() : nil)
            server = AppAttestServer()
            server.with { $0.mode = mode }
            let configuration = BioAuthConfiguration(
                serverURL: URL(string: "https://auth.bank.example")!,
                relyingPartyID: AppAttestServer.relyingPartyID,
                appAttest: appAttest
            )
            client = BioAuthClient(configuration: configuration, device: device.backends, transport: server)
            try await client.signIn(username: "alice", password: "correct horse")
        }

        /// Turns biometric sign-in on (one prompt, answered).
        @discardableResult
        func enable() async throws -> Registration {
            device.willAnswer(.present("owner"))
            return try await client.enableBiometricSignIn(prompt: "Turn on Face ID")
        }
    }

    private static func rawKeyID(_ keyID: String) -> Data { Data(base64Encoded: keyID)! }

    @Test("the first registration attests a new App Attest key and keeps its id; the next asserts with the same key")
    func attestThenAssert() async throws {
        let fixture = try await Fixture()
        let first = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 1)
        let keyID = try #require(fixture.service.generatedKeyIDs.first)
        let attested = try #require(fixture.server.starts.first?.evidence)
        #expect(attested.format == KeyAttestationEvidence.Format.appleAppAttest.rawValue)
        #expect(attested.keyID?.data == Self.rawKeyID(keyID))
        #expect(attested.attestation != nil && attested.assertion == nil)
        #expect(first.attestation?.verdict == .verified)

        let second = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 1)
        #expect(fixture.service.attestations.count == 1)
        let asserted = try #require(fixture.server.starts.last?.evidence)
        #expect(asserted.keyID?.data == Self.rawKeyID(keyID))
        #expect(asserted.assertion != nil && asserted.attestation == nil)
        #expect(fixture.service.assertions.map(\.keyID) == [keyID])
        #expect(second.attestation?.verdict == .verified)
    }

    @Test("clientDataHash is SHA-256 of KeyAttestationMessage for the public key the start request sends, and the challenge issued")
    func clientDataHashBindsTheKey() async throws {
        let fixture = try await Fixture()
        try await fixture.enable()
        try await fixture.enable()
        let hashes = fixture.service.attestations.map(\.clientDataHash) + fixture.service.assertions.map(\.clientDataHash)
        #expect(hashes.count == 2)
        for (start, hash) in zip(fixture.server.starts, hashes) {
            let evidence = try #require(start.evidence)
            let message = try KeyAttestationMessage(
                relyingPartyID: AppAttestServer.relyingPartyID,
                publicKey: start.publicKey,
                challenge: evidence.challenge.data
            ).encoded()
            #expect(hash == Data(SHA256.hash(data: message)))
        }
        // Each key was bound to a challenge the server issued for it, and to its own public key.
        #expect(fixture.server.challengeRequests == 2)
        #expect(Set(fixture.server.starts.map(\.publicKey)).count == 2)
    }

    @Test("a PIN key carries evidence too (SetPINRequest)")
    func pinKeyCarriesEvidence() async throws {
        let fixture = try await Fixture()
        try await fixture.client.setPIN("482916", keepBehindBiometrics: false)
        let evidence = try #require(fixture.server.starts.first?.evidence)
        #expect(evidence.attestation != nil)
        #expect(fixture.service.attestations.count == 1)
    }

    @Test("App Attest unsupported on the device: no challenge requested, no evidence, the key registers")
    func unsupported() async throws {
        let fixture = try await Fixture()
        fixture.service.setSupported(false)
        let registration = try await fixture.enable()
        #expect(fixture.server.challengeRequests == 0)
        #expect(fixture.server.starts.count == 1)
        #expect(fixture.server.starts.first?.evidence == nil)
        #expect(registration.attestation?.verdict == .absent)
    }

    @Test("a server that does not look at evidence (mode none): no App Attest key is made or used, no evidence, the key registers")
    func serverModeNone() async throws {
        let fixture = try await Fixture()
        fixture.server.with { $0.mode = .none }
        _ = try await fixture.enable()
        _ = try await fixture.enable()
        #expect(fixture.server.challengeRequests == 2)
        #expect(fixture.server.starts.count == 2 && fixture.server.starts.allSatisfy { $0.evidence == nil })
        #expect(fixture.service.generatedKeyIDs.isEmpty)
    }

    @Test("no App Attest on the platform, or appAttest switched off: no challenge, no evidence", arguments: [false, true])
    func absentOrSwitchedOff(switchedOff: Bool) async throws {
        let fixture = try await Fixture(appAttest: !switchedOff, maker: switchedOff)
        try await fixture.enable()
        #expect(fixture.server.challengeRequests == 0)
        #expect(fixture.server.starts.first?.evidence == nil)
        if switchedOff { #expect(fixture.service.generatedKeyIDs.isEmpty) }
    }

    @Test(
        "a server older than the challenge endpoint (404): the key registers without evidence",
        arguments: [AppAttestServer.ChallengeEndpoint.missingWithContractError, .missingPlain]
    )
    func olderServer(endpoint: AppAttestServer.ChallengeEndpoint) async throws {
        let fixture = try await Fixture(mode: .none)
        fixture.server.with { $0.challengeEndpoint = endpoint }
        let registration = try await fixture.enable()
        #expect(fixture.server.challengeRequests == 1)
        #expect(fixture.server.starts.count == 1)
        #expect(fixture.server.starts.first?.evidence == nil)
        #expect(fixture.service.generatedKeyIDs.isEmpty)
        #expect(registration.status == .active)
    }

    @Test("invalidKey on the assertion (Apple rejects the key): its id is discarded and a fresh key attests, once")
    func invalidKeyStartsOverOnce() async throws {
        let fixture = try await Fixture()
        try await fixture.enable()
        let old = try #require(fixture.service.generatedKeyIDs.first)
        fixture.service.rejectAllKeys()
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 2)
        let fresh = fixture.service.generatedKeyIDs[1]
        #expect(fresh != old)
        let evidence = try #require(fixture.server.starts.last?.evidence)
        #expect(evidence.keyID?.data == Self.rawKeyID(fresh))
        #expect(evidence.attestation != nil && evidence.assertion == nil)
        #expect(registration.attestation?.verdict == .verified)
        // The fresh key is kept: the next registration asserts with it.
        try await fixture.enable()
        #expect(fixture.service.assertions.last?.keyID == fresh)
    }

    @Test("invalidKey again after starting over: no evidence, and no third key")
    func invalidKeyTwiceGivesUp() async throws {
        let fixture = try await Fixture()
        fixture.service.failNext(.attestKey, with: .invalidKey)
        fixture.service.failNext(.attestKey, with: .invalidKey)
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 2)
        #expect(fixture.service.attestations.isEmpty)
        #expect(fixture.server.starts.first?.evidence == nil)
        #expect(registration.attestation?.verdict == .absent)
    }

    @Test("serverUnavailable: attestKey is tried again with the same key and the same clientDataHash, and the registration carries it")
    func serverUnavailableRetriesSameInputs() async throws {
        let fixture = try await Fixture()
        fixture.service.failNext(.attestKey, with: .serverUnavailable)
        let registration = try await fixture.enable()
        let requests = fixture.service.attestRequests
        #expect(requests.count == 2)
        #expect(Set(requests.map(\.keyID)).count == 1 && Set(requests.map(\.clientDataHash)).count == 1, "the same inputs")
        #expect(fixture.service.generatedKeyIDs.count == 1)
        #expect(fixture.server.starts.first?.evidence?.attestation != nil)
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test("serverUnavailable at every try: no evidence after three tries; the same unattested key attests next time")
    func serverUnavailableKeepsTheKey() async throws {
        let fixture = try await Fixture()
        for _ in 0..<3 { fixture.service.failNext(.attestKey, with: .serverUnavailable) }
        try await fixture.enable()
        #expect(fixture.service.attestRequests.count == 3)
        #expect(fixture.server.starts.first?.evidence == nil)
        let keyID = try #require(fixture.service.generatedKeyIDs.first)
        try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs == [keyID])
        #expect(fixture.service.attestations.map(\.keyID) == [keyID])
        #expect(fixture.server.starts.last?.evidence?.attestation != nil)
    }

    @Test(
        "unknownSystemFailure or invalidInput: the key is discarded and a fresh key attests, once",
        arguments: [AppAttestFault.unknownSystemFailure, .invalidInput]
    )
    func otherFaultsStartOver(fault: AppAttestFault) async throws {
        let fixture = try await Fixture()
        fixture.service.failNext(.attestKey, with: fault)
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 2)
        let evidence = try #require(fixture.server.starts.first?.evidence)
        #expect(evidence.keyID?.data == Self.rawKeyID(fixture.service.generatedKeyIDs[1]))
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test(
        "an assertion failing with unknownSystemFailure or invalidInput: the broken key is discarded and a fresh key attests; twice: no evidence, no third key",
        arguments: [AppAttestFault.unknownSystemFailure, .invalidInput]
    )
    func failingAssertionDiscardsTheKey(fault: AppAttestFault) async throws {
        let fixture = try await Fixture()
        try await fixture.enable()
        let old = try #require(fixture.service.generatedKeyIDs.first)
        fixture.service.failNext(.generateAssertion, with: fault)
        let registration = try await fixture.enable()
        let fresh = try #require(fixture.service.generatedKeyIDs.last)
        #expect(fresh != old && fixture.service.generatedKeyIDs.count == 2)
        #expect(fixture.server.starts.last?.evidence?.keyID?.data == Self.rawKeyID(fresh))
        #expect(registration.attestation?.verdict == .verified)

        fixture.service.failNext(.generateAssertion, with: fault)
        fixture.service.failNext(.attestKey, with: fault)
        let bare = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 3, "one fresh key for this registration, no more")
        #expect(fixture.server.starts.last?.evidence == nil)
        #expect(bare.attestation?.verdict == .absent)
    }

    @Test("featureUnsupported: the key registers without evidence")
    func featureUnsupported() async throws {
        let fixture = try await Fixture()
        fixture.service.failNext(.attestKey, with: .featureUnsupported)
        let registration = try await fixture.enable()
        #expect(fixture.server.starts.count == 1)
        #expect(fixture.server.starts.first?.evidence == nil)
        #expect(registration.attestation?.verdict == .absent)
    }

    @Test("a registration canceled after its attestation keeps the attested key: the next registration asserts with it, no second key is attested")
    func canceledRegistrationKeepsTheKey() async throws {
        let fixture = try await Fixture()
        fixture.device.willAnswer(.cancel)
        await #expect(throws: BioAuthError.userCanceled) { try await fixture.client.enableBiometricSignIn(prompt: "Turn on Face ID") }
        #expect(fixture.server.starts.first?.evidence?.attestation != nil)
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 1)
        #expect(fixture.service.attestations.count == 1)
        #expect(fixture.server.starts.last?.evidence?.assertion != nil)
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test(
        "under prefer, a server that never verified the kept attested key refuses its assertion (key_mismatch): the next registration attests a fresh key"
    )
    func unverifiedKeptKeyStartsOverWhenRefused() async throws {
        let fixture = try await Fixture()
        fixture.device.willAnswer(.cancel)
        _ = try? await fixture.client.enableBiometricSignIn(prompt: "Turn on Face ID")
        fixture.server.with { $0.knownKeys = [:] }  // the server kept nothing of it
        let refused = try await fixture.enable()
        #expect(refused.attestation?.verdict == .refused && refused.attestation?.reason == "key_mismatch")
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 2)
        #expect(fixture.server.starts.last?.evidence?.attestation != nil)
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test(
        "a server that refuses an attestation (under prefer, or 403 under require): the key is discarded and the next registration attests a fresh one",
        arguments: [AppAttestServer.Mode.prefer, .require]
    )
    func refusedAttestationDiscardsTheKey(mode: AppAttestServer.Mode) async throws {
        let fixture = try await Fixture(mode: mode)
        fixture.server.with { $0.remembersChallenges = false }  // no attestation can verify
        fixture.device.willAnswer(.present("owner"))
        _ = try? await fixture.client.enableBiometricSignIn(prompt: "Turn on Face ID")
        #expect(fixture.server.starts.first?.evidence?.attestation != nil)
        fixture.server.with { $0.remembersChallenges = true }
        let registration = try await fixture.enable()
        #expect(fixture.service.generatedKeyIDs.count == 2)
        let evidence = try #require(fixture.server.starts.last?.evidence)
        #expect(evidence.attestation != nil && evidence.keyID?.data == Self.rawKeyID(fixture.service.generatedKeyIDs[1]))
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test(
        "a reinstall loses the App Attest key (Apple): the kept id answers invalidKey and a fresh key attests; the next registration asserts with it"
    )
    func reinstallStartsOver() async throws {
        let fixture = try await Fixture()
        try await fixture.enable()
        let old = try #require(fixture.service.generatedKeyIDs.first)
        fixture.device.reinstallApp()
        let reinstalled = BioAuthClient(configuration: fixture.client.configuration, device: fixture.device.backends, transport: fixture.server)
        try await reinstalled.signIn(username: "alice", password: "correct horse")
        fixture.device.willAnswer(.present("owner"))
        let registration = try await reinstalled.enableBiometricSignIn(prompt: "Turn on Face ID")
        let fresh = try #require(fixture.service.generatedKeyIDs.last)
        #expect(fresh != old && fixture.service.generatedKeyIDs.count == 2)
        #expect(fixture.server.starts.last?.evidence?.attestation != nil)
        #expect(registration.attestation?.verdict == .verified)
        fixture.device.willAnswer(.present("owner"))
        try await reinstalled.enableBiometricSignIn(prompt: "Turn on Face ID")
        #expect(fixture.service.assertions.last?.keyID == fresh)
    }

    @Test("require: a server that does not know the kept key (key_mismatch) gets a fresh key's attestation, once")
    func unknownToServerAttestsAfresh() async throws {
        let fixture = try await Fixture()
        try await fixture.enable()
        fixture.server.with {
            $0.knownKeys = [:]  // the server's App Attest keys are gone (another server, a reset database)
            $0.mode = .require
        }
        let registration = try await fixture.enable()
        let statuses = fixture.server.starts.map(\.status)
        #expect(statuses == [201, 403, 201])
        #expect(fixture.server.starts[1].evidence?.assertion != nil)
        #expect(fixture.server.starts[2].evidence?.attestation != nil)
        #expect(fixture.service.generatedKeyIDs.count == 2)
        #expect(fixture.server.starts[2].evidence?.keyID?.data == Self.rawKeyID(fixture.service.generatedKeyIDs[1]))
        #expect(registration.attestation?.verdict == .verified)
    }

    @Test("require: attestation_refused for the app (not the key) is not retried; the error carries the reason")
    func refusedForTheAppIsThrown() async throws {
        let fixture = try await Fixture(mode: .require)
        // The server does not remember the challenges it issues: no evidence can verify.
        fixture.server.with { $0.remembersChallenges = false }
        fixture.device.willAnswer(.present("owner"))
        let error = await #expect(throws: BioAuthError.self) { try await fixture.client.enableBiometricSignIn(prompt: "p") }
        #expect(error?.serverCode == .attestationRefused)
        #expect(error?.rejection?.reason == "challenge_mismatch")
        #expect(fixture.server.starts.count == 1)
    }
}
