import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Transaction confirmation on the phone (docs/protocol/CONFIRMATIONS.md): the prompt shows the
/// text this device derives from the details, the key signs the hash this device computes from
/// the same details, and details that could mislead are never shown or signed.
@Suite("Confirmations: what the phone shows is what it signs")
struct ConfirmationTests {
    /// A signed-in client on a simulated phone with biometric sign-in on, and the server.
    struct Fixture {
        let device: SimulatedDevice
        let server = ConfirmationServer()
        let client: BioAuthClient

        init(appAttest: Bool = false, mode: AppAttestServer.Mode = .prefer) async throws {
            device = SimulatedDevice(appAttest: appAttest ? FakeAppAttestMaker() : nil)
            server.registrations.with { $0.mode = mode }
            let configuration = BioAuthConfiguration(
                serverURL: URL(string: "https://auth.bank.example")!,
                relyingPartyID: AppAttestServer.relyingPartyID
            )
            client = BioAuthClient(configuration: configuration, device: device.backends, transport: server)
            try await client.signIn(username: "alice", password: "correct horse")
            device.willAnswer(.present("owner"))
            try await client.enableBiometricSignIn(prompt: "Turn on Face ID")
        }

        /// The one pending confirmation the app lists.
        func onlyPending() async throws -> PendingConfirmation {
            let pending = try await client.pendingConfirmations()
            try #require(pending.count == 1)
            return pending[0]
        }
    }

    static let payment = ConfirmationDetails.payment(
        amount: "12.50",
        currency: "EUR",
        payeeName: "Alice Example",
        payeeAccount: "DE89 3704 0044 0532 0130 00",
        reference: "Invoice 42"
    )
    static let shown = "Pay 12.50 EUR to Alice Example\nAccount: DE89 3704 0044 0532 0130 00\nReference: Invoice 42"

    @Test("a payment is approved after one prompt whose reason is the derived text; the server verifies the stored details' hash")
    func approvesWithTheDerivedText() async throws {
        let fixture = try await Fixture()
        let asked = fixture.server.ask(Self.payment)
        let pending = try await fixture.onlyPending()
        #expect(pending.text?.text == Self.shown && pending.refusal == nil)
        let prompts = fixture.device.promptCount
        fixture.device.willAnswer(.present("owner"))
        let approved = try await fixture.client.approveConfirmationWithBiometrics(pending)
        #expect(approved.status == .approved && approved.receipt != nil)
        #expect(fixture.device.promptCount == prompts + 1)
        #expect(fixture.device.promptReasons.last == Self.shown)
        #expect(fixture.server.confirmation(asked.id)?.status == .approved)
        #expect(try await fixture.client.pendingConfirmations().isEmpty)
    }

    @Test("the prompt shows the text derived from the details, never the text the server sent")
    func promptIgnoresTheServersText() async throws {
        let fixture = try await Fixture()
        fixture.server.ask(Self.payment)
        fixture.server.with { $0.tamper = { $0.text = ConfirmationTextBody(title: "Sign in to Bank", lines: []) } }
        let pending = try await fixture.onlyPending()
        fixture.device.willAnswer(.present("owner"))
        try await fixture.client.approveConfirmationWithBiometrics(pending)
        #expect(fixture.device.promptReasons.last == Self.shown)
        #expect(pending.text?.text == Self.shown)
    }

    @Test("a payee changed between server and app is shown as changed and signed as shown: the server refuses the signature")
    func tamperedPayeeIsRefused() async throws {
        let fixture = try await Fixture()
        let asked = fixture.server.ask(Self.payment)
        fixture.server.with { $0.tamper = { $0.details.payeeName = "Mallory Example" } }
        let pending = try await fixture.onlyPending()
        fixture.device.willAnswer(.present("owner"))
        let refused = await #expect(throws: BioAuthError.self) { try await fixture.client.approveConfirmationWithBiometrics(pending) }
        #expect(refused?.serverCode == .signatureInvalid, "\(String(describing: refused))")
        #expect(fixture.device.promptReasons.last?.hasPrefix("Pay 12.50 EUR to Mallory Example") == true)
        #expect(fixture.server.confirmation(asked.id)?.status == .pending)
    }

    @Test(
        "details that break the rules (a right-to-left override in the payee, an unknown kind) are refused before any request or prompt",
        arguments: [
            ConfirmationDetails.payment(amount: "12.50", currency: "EUR", payeeName: "Alice \u{202E}elpmaxE"),
            ConfirmationDetails(kind: ConfirmationKind(rawValue: "transfer"), amount: "12.50", currency: "EUR", payeeName: "Alice Example"),
            ConfirmationDetails.payment(amount: "12.5.0", currency: "EUR", payeeName: "Alice Example"),
        ]
    )
    func refusesMisleadingDetails(details: ConfirmationDetails) async throws {
        let fixture = try await Fixture()
        fixture.server.ask(Self.payment)
        fixture.server.with { state in state.tamper = { $0.details = details } }
        let pending = try await fixture.onlyPending()
        #expect(pending.text == nil)
        #expect(pending.refusal?.code == .confirmationRefused && pending.refusal?.confirmationProblem != nil)
        let prompts = fixture.device.promptCount
        let refused = await #expect(throws: BioAuthError.self) { try await fixture.client.approveConfirmationWithBiometrics(pending) }
        #expect(refused?.code == .confirmationRefused)
        #expect(fixture.device.promptCount == prompts)
        #expect(fixture.server.with { $0.challenges.isEmpty && $0.approvals.isEmpty })
    }

    @Test("a declined confirmation is no longer pending, and approving it then is confirmation_closed")
    func declines() async throws {
        let fixture = try await Fixture()
        let asked = fixture.server.ask(.action("Add Bob Example as a payee"))
        let pending = try await fixture.onlyPending()
        #expect(pending.text?.text == "Add Bob Example as a payee")
        let declined = try await fixture.client.declineConfirmation(pending)
        #expect(declined.status == .declined && fixture.server.confirmation(asked.id)?.status == .declined)
        #expect(try await fixture.client.pendingConfirmations().isEmpty)
        fixture.device.willAnswer(.present("owner"))
        let closed = await #expect(throws: BioAuthError.self) { try await fixture.client.approveConfirmationWithBiometrics(pending) }
        #expect(closed?.serverCode == .confirmationClosed && closed?.rejection?.status == 409)
    }

    @Test("the PIN key approves with the PIN, without a prompt, where the server allows it; elsewhere confirmation_factor_not_allowed")
    func approvesWithThePIN() async throws {
        let fixture = try await Fixture()
        try await fixture.client.setPIN("4822", keepBehindBiometrics: false)
        let asked = fixture.server.ask(Self.payment)
        let pending = try await fixture.onlyPending()
        let prompts = fixture.device.promptCount
        let notAllowed = await #expect(throws: BioAuthError.self) { try await fixture.client.approveConfirmationWithPIN(pending, pin: "4822") }
        #expect(notAllowed?.serverCode == .confirmationFactorNotAllowed)
        fixture.server.with { $0.pinAllowed = true }
        let approved = try await fixture.client.approveConfirmationWithPIN(pending, pin: "4822")
        #expect(approved.status == .approved && fixture.server.confirmation(asked.id)?.status == .approved)
        #expect(fixture.device.promptCount == prompts)
        #expect(fixture.server.with { $0.approvals.last?.pin } == "4822")
    }

    @Test("a key vouched for by App Attest sends an assertion by that App Attest key over SHA-256 of the message; under require it is approved")
    func sendsAnAppAttestAssertion() async throws {
        let fixture = try await Fixture(appAttest: true, mode: .require)
        let service = try #require(fixture.device.appAttest)
        let keyID = try #require(service.generatedKeyIDs.first)
        fixture.server.ask(Self.payment)
        let pending = try await fixture.onlyPending()
        fixture.device.willAnswer(.present("owner"))
        let approved = try await fixture.client.approveConfirmationWithBiometrics(pending)
        #expect(approved.status == .approved)
        let assertion = try #require(fixture.server.with { $0.approvals.last?.appAttestAssertion })
        #expect(assertion.data.prefix(35) == Data("ASR".utf8) + Data(base64Encoded: keyID)!)
        let message = try #require(fixture.server.with { $0.messages.last })
        #expect(service.assertions.last?.clientDataHash == Data(SHA256.hash(data: message)))
    }

    @Test("each key asserts with the App Attest key its own registration was vouched for by, even after the kept App Attest key changed")
    func assertsWithTheRegistrationsAppAttestKey() async throws {
        let fixture = try await Fixture(appAttest: true, mode: .require)
        let service = try #require(fixture.device.appAttest)
        let first = try #require(service.generatedKeyIDs.first)
        // The server forgets the App Attest key: the PIN's registration attests a new one.
        fixture.server.registrations.with { $0.knownKeys = [:] }
        try await fixture.client.setPIN("4822", keepBehindBiometrics: false)
        let second = try #require(service.generatedKeyIDs.last)
        #expect(first != second)
        fixture.server.with { $0.pinAllowed = true }
        fixture.server.ask(Self.payment)
        fixture.device.willAnswer(.present("owner"))
        try await fixture.client.approveConfirmationWithBiometrics(try await fixture.onlyPending())
        fixture.server.ask(Self.payment)
        try await fixture.client.approveConfirmationWithPIN(try await fixture.onlyPending(), pin: "4822")
        let keys = fixture.server.with { $0.approvals.compactMap { $0.appAttestAssertion?.data.dropFirst(3).prefix(32) } }
        #expect(keys.map { Data($0) } == [Data(base64Encoded: first)!, Data(base64Encoded: second)!])
    }

    @Test("a key registered without App Attest evidence sends no assertion")
    func noAssertionWithoutEvidence() async throws {
        let fixture = try await Fixture(appAttest: false)
        fixture.server.ask(Self.payment)
        let pending = try await fixture.onlyPending()
        fixture.device.willAnswer(.present("owner"))
        try await fixture.client.approveConfirmationWithBiometrics(pending)
        #expect(fixture.server.with { $0.approvals.last?.appAttestAssertion } == nil)
    }
}
