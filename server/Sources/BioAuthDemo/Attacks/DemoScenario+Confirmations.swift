@_spi(DeviceSeam) import BioAuthKit
import BioAuthTesting
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Attacks 14 to 17: transaction confirmation (docs/protocol/CONFIRMATIONS.md). The bank's backend
/// asks with a service credential; Alice's phone shows the payment and signs it after a match.
extension DemoScenario {
    /// The landlord Alice means to pay, and the mule the attacker wants paid.
    static let landlord = ConfirmationDetails.payment(
        amount: "950.00",
        currency: "EUR",
        payeeName: "Jane Landlord",
        payeeAccount: "DE89 3704 0044 0532 0130 00",
        reference: "Rent December"
    )
    static let mule = ConfirmationDetails.payment(
        amount: "950.00",
        currency: "EUR",
        payeeName: "M. Ule Trading",
        payeeAccount: "LT12 1000 0111 0100 1000",
        reference: "Rent December"
    )

    /// The in-process server's bank backend: a new service credential, or `nil` against `--server`.
    func bankBackend() async throws -> String? {
        try await target.inProcess?.server.serviceCredentialAdministration.create(name: "demo bank backend", webhookURL: nil).secret
    }

    /// The bank's backend asks Alice's account to confirm `details`.
    func bankAsks(_ details: ConfirmationDetails, credential: String, userID: String, expiresIn: Int? = nil) async throws -> Confirmation {
        let request = CreateConfirmationRequest(userID: userID, details: details, expiresInSeconds: expiresIn)
        let answer = try await http.call(.createConfirmation, body: request, token: credential)
        guard answer.status == 201 else {
            throw DemoFailure("the bank's request was refused: \(answer.status) \(RawHTTP.errorCode(answer.body) ?? "")")
        }
        return try WireJSON.makeDecoder().decode(Confirmation.self, from: answer.body)
    }

    /// Where confirmation `id` stands, as the bank's backend reads it.
    func bankReads(_ id: String, credential: String) async throws -> ConfirmationStatus {
        let answer = try await http.call(.getConfirmation, id: id, token: credential)
        return try WireJSON.makeDecoder().decode(Confirmation.self, from: answer.body).status
    }

    /// Alice signed in on her phone with Face ID sign-in on (a recovery in attack 12 revoked her
    /// key); her user id.
    func aliceWithFaceID() async throws -> String {
        let signedIn = try await client.signIn(username: username, password: password)
        try await client.reconcile()
        if await !client.isBiometricSignInEnabled() {
            device.willAnswer(.present("owner"))
            let password = self.password
            registration = try await client.enableBiometricSignIn(
                label: "Alice's phone",
                prompt: "Turn on Face ID",
                reauthentication: .password { password }
            )
        }
        return signedIn.user.id
    }

    /// The pending confirmation `id` as the phone lists it.
    func pending(_ id: String) async throws -> PendingConfirmation {
        guard let pending = try await client.pendingConfirmations().first(where: { $0.id == id }) else {
            throw DemoFailure("confirmation \(id) is not pending on the phone")
        }
        return pending
    }

    /// Attack 14: the bank was tricked into paying a mule (malware in Alice's browser swapped the
    /// payee); a man in the middle on the phone's connection shows Alice her landlord instead.
    package func attackPayeeSwappedOnTheWire() async throws -> DemoSection {
        let title = "A payee swapped on the wire: the phone signs what it shows, and the server refuses it"
        guard let bank = try await bankBackend() else {
            return .skippedAttack(number: 14, title: title, property: .confirmationBindsWhatWasShown, because: Self.needsBank)
        }
        let userID = try await aliceWithFaceID()
        let asked = try await bankAsks(Self.mule, credential: bank, userID: userID)
        let (mule, landlord) = (Self.mule, Self.landlord)
        tap.setRewrite { request, body in
            guard request.url?.path == Endpoint.listConfirmations.path() else { return body }
            let text = String(decoding: body, as: UTF8.self)
            return Data(
                text.replacingOccurrences(of: mule.payeeName ?? "", with: landlord.payeeName ?? "")
                    .replacingOccurrences(of: mule.payeeAccount ?? "", with: landlord.payeeAccount ?? "").utf8
            )
        }
        let shown: String?
        let approval: BioAuthError?
        do {
            let pending = try await pending(asked.id)
            shown = pending.text?.text
            device.willAnswer(.present("owner"))
            approval = await caught { try await client.approveConfirmationWithBiometrics(pending) }
        } catch {
            tap.setRewrite(nil)
            throw error
        }
        tap.setRewrite(nil)
        let status = try await bankReads(asked.id, credential: bank)
        let prompt = device.promptReasons.last ?? ""
        let property = PropertyResult(
            .confirmationBindsWhatWasShown,
            held: prompt.contains("Jane Landlord") && approval?.serverCode == .signatureInvalid && status == .pending,
            "the prompt showed \"\(prompt.split(separator: "\n").first ?? "")\"; approval → \(approval.brief); the bank reads \(status)"
        )
        return section(
            .attack,
            14,
            title,
            """
            Malware in Alice's browser swapped the payee of her rent payment, so the bank's \
            backend asks her phone to confirm 950 EUR to a mule. A man in the middle on the \
            phone's connection rewrites the payee back to her landlord, so Alice sees what she \
            expects and lets Face ID approve. The phone derives the text it shows and the hash it \
            signs from the same fields it received, so the key signed the landlord's payment; the \
            server checks the signature against the hash of the payment it stored, the mule's, and \
            refuses. Nothing is approved; the bank still reads pending (dynamic linking: PSD2 RTS \
            Article 5).
            """,
            events: [
                "bank asks: \(ConfirmationText(Self.mule)?.title ?? "")",
                "on the wire the payee becomes Jane Landlord; the phone's prompt: \(prompt.replacingOccurrences(of: "\n", with: " / "))",
                "approveConfirmationWithBiometrics → \(approval.brief)",
                "bank reads the confirmation: \(status)",
            ],
            properties: [property]
        )
    }

    static let needsBank = "needs a service credential on the server, which the in-process demo makes (run without --server)"
}

extension DemoScenario {
    /// Attack 15: the attacker on the wire takes Alice's approval of her rent and sends it to
    /// approve the mule's payment instead; later replays her approval.
    package func attackApprovalRedirected() async throws -> DemoSection {
        let title = "An approval redirected to another payment, or replayed: refused"
        guard let bank = try await bankBackend() else {
            return .skippedAttack(number: 15, title: title, property: .confirmationApprovalNotTransferable, because: Self.needsBank)
        }
        let userID = try await aliceWithFaceID()
        let rent = try await bankAsks(Self.landlord, credential: bank, userID: userID)
        let swapped = try await bankAsks(Self.mule, credential: bank, userID: userID)
        let redirected = Redirect(tap: tap, from: Endpoint.approveConfirmation.path(rent.id), to: Endpoint.approveConfirmation.path(swapped.id))
        tap.setHold { request in await redirected.send(request) }
        device.willAnswer(.present("owner"))
        let first = await caught { try await client.approveConfirmationWithBiometrics(try await pending(rent.id)) }
        tap.setHold(nil)
        device.willAnswer(.present("owner"))
        let second = await caught { try await client.approveConfirmationWithBiometrics(try await pending(rent.id)) }
        var replayed: Int?
        if let approval = tap.lastRequest(pathSuffix: Endpoint.approveConfirmation.path(rent.id)) {
            replayed = try await tap.replay(approval).1.statusCode
        }
        let (rentStatus, muleStatus) = (try await bankReads(rent.id, credential: bank), try await bankReads(swapped.id, credential: bank))
        let property = PropertyResult(
            .confirmationApprovalNotTransferable,
            held: redirected.answer?.code == ErrorCode.signatureInvalid.rawValue && second == nil && replayed == 409 && rentStatus == .approved
                && muleStatus == .pending,
            "the rent's approval sent to the mule's payment → \(redirected.answer.map { "\($0.status) \($0.code ?? "")" } ?? "not sent"); "
                + "Alice's own request then → \(first.brief); her retry → \(second.brief); its replay → \(replayed.map(String.init) ?? "none"); "
                + "the bank reads rent \(rentStatus), mule \(muleStatus)"
        )
        return section(
            .attack,
            15,
            title,
            """
            Alice approves her rent. The attacker on the wire holds her approval back and sends \
            it, byte for byte, to approve the mule's payment, which the bank was tricked into \
            asking for too. The signature covers the hash of the rent's details, so it does not \
            verify for the mule's payment; and it spent the challenge, so Alice's held request \
            fails too and her phone simply asks again. A replay of her approval after it went \
            through is refused: a confirmation is approved once, and each challenge is single-use.
            """,
            events: [
                "bank asks: \(ConfirmationText(Self.landlord)?.title ?? "") and \(ConfirmationText(Self.mule)?.title ?? "")",
                "redirected to the mule's payment → \(redirected.answer.map { "\($0.status) \($0.code ?? "")" } ?? "not sent")",
                "Alice's held approval → \(first.brief); she approves again → \(second.brief)",
                "the approval replayed → \(replayed.map(String.init) ?? "none")",
                "bank reads: rent \(rentStatus), mule's payment \(muleStatus)",
            ],
            properties: [property]
        )
    }

    /// Attack 16: approvals that come too late, for someone else, or with a revoked key.
    package func attackStaleApprovals() async throws -> DemoSection {
        let title = "Too late, someone else's, or with a revoked key: refused"
        guard let server = target.inProcess, let bank = try await bankBackend() else {
            let reason = "needs the server's clock and a service credential, which the in-process demo has (run without --server)"
            return .skippedAttack(number: 16, title: title, property: .staleApprovalRefused, because: reason)
        }
        let userID = try await aliceWithFaceID()
        let late = try await pending(try await bankAsks(Self.landlord, credential: bank, userID: userID, expiresIn: 30).id)
        server.clock.advance(seconds: 31)
        device.willAnswer(.present("owner"))
        let expired = await caught { try await client.approveConfirmationWithBiometrics(late) }
        let bob = try await http.call(.createUser, json: ["username": "bob-\(UUID().uuidString.prefix(6).lowercased())", "password": password])
        let bobID = try WireJSON.makeDecoder().decode(UserResponse.self, from: bob.body).user.id
        let bobs = try await bankAsks(Self.landlord, credential: bank, userID: bobID)
        device.willAnswer(.present("owner"))
        let foreign = await caught { try await client.approveConfirmationWithBiometrics(PendingConfirmation(bobs)) }
        let rent = try await pending(try await bankAsks(Self.landlord, credential: bank, userID: userID).id)
        let registrationID = registration?.id ?? ""
        let other = try await http.call(.signInWithPassword, json: ["username": username, "password": password]).body
        let otherToken = ((try? JSONSerialization.jsonObject(with: other) as? [String: Any])?["session_token"] as? String) ?? ""
        let deleted = try await http.call(.deleteRegistration, id: registrationID, token: otherToken).status
        // No prompt: the phone's challenge for the revoked key is refused first.
        let revoked = await caught { try await client.approveConfirmationWithBiometrics(rent) }
        let statuses = [
            try await bankReads(late.id, credential: bank), try await bankReads(bobs.id, credential: bank),
            try await bankReads(rent.id, credential: bank),
        ]
        let property = PropertyResult(
            .staleApprovalRefused,
            held: expired?.serverCode == .confirmationClosed && foreign?.serverCode == .notFound && deleted == 204 && revoked != nil
                && statuses == [.expired, .pending, .pending],
            "after expiry → \(expired.brief); Bob's confirmation → \(foreign.brief); after the key's revocation → \(revoked.brief); "
                + "the bank reads \(statuses.map(\.rawValue).joined(separator: ", "))"
        )
        return section(
            .attack,
            16,
            title,
            """
            Each approval must come in time, for a confirmation of the signing key's own account, \
            from a key still active at that moment. Alice's phone approves a payment after its \
            expiry; the attacker makes it approve Bob's payment (asked by the same bank); and \
            after Alice revokes her key from another device, the phone tries with it once more. \
            The server refuses all three, in the same transaction that would have approved them.
            """,
            events: [
                "after expiry → \(expired.brief)",
                "Bob's confirmation, approved by Alice's key → \(foreign.brief)",
                "Alice revokes the key from her laptop → \(deleted); the phone approves with it → \(revoked.brief)",
                "bank reads: \(statuses.map(\.rawValue).joined(separator: ", "))",
            ],
            properties: [property]
        )
    }

    /// Attack 17: Frida answers the app's "are you sure?" for the attacker holding Alice's phone.
    package func attackHookedConfirmation() async throws -> DemoSection {
        let title = "Frida answers \"are you sure?\": no match, no signature, nothing approved"
        guard let bank = try await bankBackend() else {
            return .skippedAttack(number: 17, title: title, property: .hookedConfirmationYieldsNothing, because: Self.needsBank)
        }
        let userID = try await aliceWithFaceID()
        let asked = try await bankAsks(Self.mule, credential: bank, userID: userID)
        device.attacker.hookEvaluatePolicy()
        let hooked = await device.backends.localAuthentication.makeContext()
            .evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Pay 950.00 EUR?")
        device.willAnswer(.presentUnenrolled, .presentUnenrolled, .cancel)
        let approval = await caught { try await client.approveConfirmationWithBiometrics(try await pending(asked.id)) }
        let status = try await bankReads(asked.id, credential: bank)
        let property = PropertyResult(
            .hookedConfirmationYieldsNothing,
            held: hooked == nil && approval != nil && status == .pending,
            "evaluatePolicy → \(hooked == nil ? "success (hooked)" : "not hooked"); approval → \(approval.brief); the bank reads \(status)"
        )
        return section(
            .attack,
            17,
            title,
            """
            The attacker holds Alice's unlocked phone with Frida in the banking app and hooks \
            evaluatePolicy, so an app that asks "are you sure?" and trusts the answer would \
            report the payment confirmed, as an event-based app does. BioAuth's approval is the \
            device key's signature, which the secure hardware makes only after a real match; the \
            attacker's face does not match, so there is no signature and the bank still reads \
            pending.
            """,
            events: [
                "hook installed: evaluatePolicy(…) → \(hooked == nil ? "success" : "\(hooked!)") (an event-based app would now say \"confirmed\")",
                "approveConfirmationWithBiometrics → \(approval.brief)",
                "bank reads the confirmation: \(status)",
            ],
            properties: [property]
        )
    }
}

/// An attacker on the wire who sends the first request to `from` to `to` instead, once, and
/// keeps the answer.
private final class Redirect: @unchecked Sendable {
    private let tap: WireTap
    private let from: String
    private let to: String
    private let state = Mutex<(status: Int, code: String?)?>(nil)

    init(tap: WireTap, from: String, to: String) {
        self.tap = tap
        self.from = from
        self.to = to
    }

    /// The answer to the redirected request, once sent.
    var answer: (status: Int, code: String?)? { state.withLock { $0 } }

    /// Sends `request` to `to` if it is the first to `from`.
    func send(_ request: URLRequest) async {
        guard answer == nil, let url = request.url, url.path == from else { return }
        var redirected = request
        redirected.url = URL(string: url.absoluteString.replacingOccurrences(of: from, with: to))
        let answer = try? await tap.replay(redirected)
        state.withLock { $0 = answer.map { ($0.1.statusCode, RawHTTP.errorCode($0.0)) } ?? (0, nil) }
    }
}
