import BioAuthKit
import BioAuthProtocol
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// BioAuthKit's confirmations against the real server over loopback, on SQLite and PostgreSQL:
/// the bank's backend asks (a service credential), the phone shows the text it derives and signs
/// the hash it computes, and the server judges the signature against the details it stored.
@Suite("Client: confirmations against the real server")
struct ClientConfirmationTests {
    static let payment = ConfirmationDetails.payment(
        amount: "12.50",
        currency: "EUR",
        payeeName: "Alice Example",
        payeeAccount: "DE89 3704 0044 0532 0130 00",
        reference: "Invoice 42"
    )
    static let shown = "Pay 12.50 EUR to Alice Example\nAccount: DE89 3704 0044 0532 0130 00\nReference: Invoice 42"

    @Test(
        "the phone approves with one prompt showing the derived text; the receipt holds the device's signature over the message with that hash",
        arguments: LoopbackServer.Database.available
    )
    func approvesWithAReceipt(database: LoopbackServer.Database) async throws {
        try await LoopbackServer.run(on: database) { server in
            let account = try await Account.signedIn(on: server)
            let registration = try await account.enableBiometrics()
            let bank = try await server.serviceCredential()
            let asked = try await server.askConfirmation(Self.payment, of: account, credential: bank)
            let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
            #expect(pending.text?.text == Self.shown)
            account.device.willAnswer(.present("owner"))
            let approved = try await account.client.approveConfirmationWithBiometrics(pending)
            #expect(account.device.promptReasons.last == Self.shown)
            #expect(approved.status == .approved && approved.factor == .biometric && approved.registrationID == registration.id)
            let receipt = try #require(approved.receipt.flatMap(Self.claims))
            let evidence = try #require(receipt["evidence"] as? [String: Any])
            let message = try #require((evidence["message"] as? String).flatMap(Base64URL.decode))
            #expect(message.suffix(32) == Self.payment.hash(confirmationID: asked.id))
            let credential = try #require(receipt["credential"] as? [String: Any])
            let key = try DevicePublicKey(
                algorithm: .es256,
                canonicalBytes: try #require((credential["public_key"] as? String).flatMap(Base64URL.decode))
            )
            let signature = try DeviceSignature(algorithm: .es256, bytes: try #require((evidence["signature"] as? String).flatMap(Base64URL.decode)))
            #expect(key.isValidSignature(signature, for: message))
            #expect(try await server.readConfirmation(asked.id, credential: bank).status == .approved)
        }
    }

    @Test(
        "a payee changed by a man in the middle is shown as changed, signed as shown, and refused by the server; the confirmation stays pending",
        arguments: LoopbackServer.Database.available
    )
    func tamperedPayeeIsRefused(database: LoopbackServer.Database) async throws {
        try await LoopbackServer.run(on: database) { server in
            let middle = TamperingTransport()
            let account = try await Account.signedIn(on: server, transport: middle)
            try await account.enableBiometrics()
            let bank = try await server.serviceCredential()
            let asked = try await server.askConfirmation(Self.payment, of: account, credential: bank)
            middle.rewrite { $0.details.payeeName = "Mallory Example" }
            let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
            account.device.willAnswer(.present("owner"))
            let refused = await #expect(throws: BioAuthError.self) { try await account.client.approveConfirmationWithBiometrics(pending) }
            #expect(refused?.serverCode == .signatureInvalid, "\(String(describing: refused))")
            #expect(account.device.promptReasons.last?.hasPrefix("Pay 12.50 EUR to Mallory Example") == true)
            #expect(try await server.readConfirmation(asked.id, credential: bank).status == .pending)
        }
    }

    @Test("details the SDK refuses to show are never signed: no challenge, no prompt, nothing approved", arguments: LoopbackServer.Database.available)
    func refusedDetailsAreNotSigned(database: LoopbackServer.Database) async throws {
        try await LoopbackServer.run(on: database) { server in
            let middle = TamperingTransport()
            let account = try await Account.signedIn(on: server, transport: middle)
            try await account.enableBiometrics()
            let bank = try await server.serviceCredential()
            let asked = try await server.askConfirmation(Self.payment, of: account, credential: bank)
            middle.rewrite { $0.details.payeeName = "Alice \u{202E}elpmaxE" }
            let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
            #expect(pending.refusal?.code == .confirmationRefused && pending.refusal?.confirmationProblem?.field == "payee_name")
            let prompts = account.device.promptCount
            let refused = await #expect(throws: BioAuthError.self) { try await account.client.approveConfirmationWithBiometrics(pending) }
            #expect(refused?.code == .confirmationRefused && account.device.promptCount == prompts)
            #expect(try await server.readConfirmation(asked.id, credential: bank).status == .pending)
        }
    }

    @Test("the user declines: the bank reads declined, and a later approval is confirmation_closed", arguments: LoopbackServer.Database.available)
    func declines(database: LoopbackServer.Database) async throws {
        try await LoopbackServer.run(on: database) { server in
            let account = try await Account.signedIn(on: server)
            try await account.enableBiometrics()
            let bank = try await server.serviceCredential()
            let asked = try await server.askConfirmation(.action("Add Bob Example as a payee"), of: account, credential: bank)
            let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
            #expect(pending.text?.text == "Add Bob Example as a payee")
            #expect(try await account.client.declineConfirmation(pending).status == .declined)
            #expect(try await server.readConfirmation(asked.id, credential: bank).status == .declined)
            #expect(try await account.client.pendingConfirmations().isEmpty)
            account.device.willAnswer(.present("owner"))
            let closed = await #expect(throws: BioAuthError.self) { try await account.client.approveConfirmationWithBiometrics(pending) }
            #expect(closed?.serverCode == .confirmationClosed)
        }
    }

    @Test(
        "the PIN key with its PIN approves only where the operator allows it: confirmation_factor_not_allowed by default, factor pin when allowed",
        arguments: LoopbackServer.Database.available
    )
    func pinFactor(database: LoopbackServer.Database) async throws {
        for allowed in [false, true] {
            try await LoopbackServer.run(on: database, configure: { $0.confirmationPIN = allowed ? .allow : .deny }) { server in
                let account = try await Account.signedIn(on: server)
                try await account.client.setPIN("4822", keepBehindBiometrics: false)
                let bank = try await server.serviceCredential()
                let asked = try await server.askConfirmation(Self.payment, of: account, credential: bank)
                let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
                if allowed {
                    let approved = try await account.client.approveConfirmationWithPIN(pending, pin: "4822")
                    #expect(approved.status == .approved && approved.factor == .pin)
                } else {
                    let refused = await #expect(throws: BioAuthError.self) {
                        try await account.client.approveConfirmationWithPIN(pending, pin: "4822")
                    }
                    #expect(refused?.serverCode == .confirmationFactorNotAllowed)
                    #expect(try await server.readConfirmation(asked.id, credential: bank).status == .pending)
                }
            }
        }
    }

    @Test(
        "under --key-attestation require, a key registered with App Attest evidence approves with an assertion over the message; the receipt says app_attest",
        arguments: LoopbackServer.Database.available
    )
    func appAttestUnderRequire(database: LoopbackServer.Database) async throws {
        let roots = [ClientAppAttestTests.authority.root]
        try await LoopbackServer.run(
            on: database,
            appAttestRoots: roots,
            configure: { configuration in
                configuration.keyAttestation = .require
                configuration.appAttestAppIDs = [ClientAppAttestTests.appID]
            }
        ) { server in
            let device = SimulatedDevice(appAttest: AppAttestMaker(authority: ClientAppAttestTests.authority, appID: ClientAppAttestTests.appID))
            let account = try await Account.signedIn(on: server, device: device)
            try await account.enableBiometrics()
            let bank = try await server.serviceCredential()
            let asked = try await server.askConfirmation(Self.payment, of: account, credential: bank)
            let pending = try #require(try await account.client.pendingConfirmations().first { $0.id == asked.id })
            device.willAnswer(.present("owner"))
            let approved = try await account.client.approveConfirmationWithBiometrics(pending)
            #expect(approved.status == .approved)
            let receipt = try #require(approved.receipt.flatMap(Self.claims))
            #expect(receipt["app_attest"] as? Bool == true)
            #expect(try #require(device.appAttest).assertions.count == 1)
        }
    }

    /// The claims of a compact JWS, unverified (the server's suites verify receipts).
    static func claims(of jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }
}
