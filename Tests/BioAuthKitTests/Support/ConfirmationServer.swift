import BioAuthKit
import Foundation

@testable import BioAuthSimulator

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The confirmation endpoints of a BioAuth server (docs/protocol/CONFIRMATIONS.md), over the
/// registrations of an ``AppAttestServer`` (sign-in, key registration with or without App Attest
/// evidence). It judges an approval as the server does: a single-use challenge of that
/// registration, the signature over the ``ConfirmationMessage`` rebuilt from the STORED details'
/// hash, the PIN factor only when allowed, and under `require` an assertion by the App Attest key
/// the registration was vouched for by, over SHA-256 of the message. `tamper` plays a man in the
/// middle who rewrites the list on its way to the app.
final class ConfirmationServer: HTTPTransport, @unchecked Sendable {
    struct Key {
        var publicKey: DevicePublicKey
        var isPIN: Bool
        var appAttestKeyID: Data?
    }

    struct State {
        var confirmations: [Confirmation] = []
        var keys: [String: Key] = [:]
        var pendingKeys: [String: Key] = [:]
        var challenges: [String: (registrationID: String, challenge: Data)] = [:]
        var pinAllowed = false
        var pin = "4822"
        var assertionCounters: [Data: UInt32] = [:]
        var approvals: [ApproveConfirmationRequest] = []
        /// The message each approval's signature was checked against.
        var messages: [Data] = []
        var tamper: (@Sendable (inout Confirmation) -> Void)?
    }

    let registrations = AppAttestServer()
    private let state = Locked(State())

    func with<T>(_ body: (inout State) -> T) -> T { state.withLock(body) }

    /// Asks the account to confirm `details`, as the bank's backend would.
    @discardableResult
    func ask(_ details: ConfirmationDetails) -> Confirmation {
        with { state in
            let id = "cnf_" + (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            let hash = details.hash(confirmationID: id)
            let text = ConfirmationText(details).map(ConfirmationTextBody.init) ?? ConfirmationTextBody(title: "", lines: [])
            let now = Date()
            let confirmation = Confirmation(
                id: id,
                userID: "usr_1",
                status: .pending,
                details: details,
                detailsHash: Base64URLBytes(hash),
                text: text,
                createdAt: now,
                expiresAt: now + 300
            )
            state.confirmations.append(confirmation)
            return confirmation
        }
    }

    func confirmation(_ id: String) -> Confirmation? { with { $0.confirmations.first { $0.id == id } } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let route = "\(request.httpMethod ?? "GET") \(path)"
        let body = request.httpBody ?? Data()
        let answer: (Int, (any Encodable)?)?
        if route.hasPrefix("POST /v1/confirmations/") || route == "GET /v1/confirmations" || route == "POST /v1/biometric/challenges" {
            let mode = registrations.with { $0.mode }
            answer = with { confirmations(route, path, body, mode: mode, &$0) }
        } else {
            answer = nil
        }
        guard let (status, value) = answer else { return try await forward(request, route: route, path: path, body: body) }
        let data = try value.map { try WireJSON.makeEncoder().encode($0) } ?? Data()
        return (data, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!)
    }

    /// A registration route, answered by ``registrations``; the keys it registers are kept.
    private func forward(_ request: URLRequest, route: String, path: String, body: Data) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await registrations.send(request)
        let decoder = WireJSON.makeDecoder()
        if response.statusCode == 201, let started = try? decoder.decode(RegistrationStartResponse.self, from: data) {
            let (algorithm, publicKey, evidence): (String, Data, KeyAttestationEvidence?)
            if route == "PUT /v1/users/me/pin", let pin = try? decoder.decode(SetPINRequest.self, from: body) {
                (algorithm, publicKey, evidence) = (pin.algorithm, pin.publicKey.data, pin.keyAttestation)
            } else if let start = try? decoder.decode(StartRegistrationRequest.self, from: body) {
                (algorithm, publicKey, evidence) = (start.algorithm, start.publicKey.data, start.keyAttestation)
            } else {
                return (data, response)
            }
            let key = try DevicePublicKey(algorithm: SignatureAlgorithm(rawValue: algorithm) ?? .es256, canonicalBytes: publicKey)
            with {
                $0.pendingKeys[started.registrationID] = Key(publicKey: key, isPIN: route.hasPrefix("PUT"), appAttestKeyID: evidence?.keyID?.data)
            }
        } else if response.statusCode == 200, path.hasSuffix("/verify"), let verified = try? decoder.decode(RegistrationResponse.self, from: data) {
            let id = verified.registration.id
            with { state in
                guard var key = state.pendingKeys.removeValue(forKey: id) else { return }
                if verified.registration.attestation?.verdict != .verified { key.appAttestKeyID = nil }
                state.keys[id] = key
            }
        }
        return (data, response)
    }

    private func confirmations(
        _ route: String,
        _ path: String,
        _ body: Data,
        mode: AppAttestServer.Mode,
        _ state: inout State
    ) -> (
        Int, (any Encodable)?
    ) {
        let decoder = WireJSON.makeDecoder()
        if route == "POST /v1/biometric/challenges" {
            guard let request = try? decoder.decode(CreateChallengeRequest.self, from: body), state.keys[request.registrationID] != nil else {
                return (404, ErrorResponse(code: .registrationNotFound, message: "No such registration."))
            }
            let id = "chl_\(state.challenges.count + 1)"
            let challenge = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
            state.challenges[id] = (request.registrationID, challenge)
            return (201, ChallengeResponse(challengeID: id, challenge: challenge, expiresAt: Date() + 120))
        }
        if route == "GET /v1/confirmations" {
            let listed = state.confirmations.map { confirmation in
                var sent = confirmation
                state.tamper?(&sent)
                return sent
            }
            return (200, ConfirmationList(confirmations: listed))
        }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 4, let index = state.confirmations.firstIndex(where: { $0.id == parts[2] }) else {
            return (404, ErrorResponse(code: .notFound, message: "No such confirmation."))
        }
        guard state.confirmations[index].status == .pending else {
            return (409, ErrorResponse(code: .confirmationClosed, message: "It is no longer pending."))
        }
        switch parts[3] {
        case "decline":
            state.confirmations[index].status = .declined
            return (200, state.confirmations[index])
        case "approve":
            guard let request = try? decoder.decode(ApproveConfirmationRequest.self, from: body) else { return (400, nil) }
            state.approvals.append(request)
            if let refusal = Self.judge(request, index, mode: mode, &state) { return refusal }
            state.confirmations[index].status = .approved
            state.confirmations[index].receipt = "receipt"
            return (200, state.confirmations[index])
        default:
            return (404, nil)
        }
    }

    /// `nil` when the approval holds, else the server's refusal.
    private static func judge(
        _ request: ApproveConfirmationRequest,
        _ index: Int,
        mode: AppAttestServer.Mode,
        _ state: inout State
    ) -> (
        Int, (any Encodable)?
    )? {
        let confirmation = state.confirmations[index]
        guard let challenge = state.challenges.removeValue(forKey: request.challengeID), let key = state.keys[challenge.registrationID] else {
            return (401, ErrorResponse(code: .challengeInvalid, message: "Unknown challenge."))
        }
        if key.isPIN && !state.pinAllowed {
            return (403, ErrorResponse(code: .confirmationFactorNotAllowed, message: "A PIN does not confirm here."))
        }
        let message = try! ConfirmationMessage(
            relyingPartyID: AppAttestServer.relyingPartyID,
            registrationID: challenge.registrationID,
            challenge: challenge.challenge,
            detailsHash: confirmation.detailsHash.data
        ).encoded()
        state.messages.append(message)
        guard let signature = try? DeviceSignature(algorithm: key.publicKey.algorithm, bytes: request.signature.data),
            key.publicKey.isValidSignature(signature, for: message), !key.isPIN || request.pin == state.pin
        else {
            return (401, ErrorResponse(code: .signatureInvalid, message: "The signature does not verify."))
        }
        if mode == .require, let keyID = key.appAttestKeyID {
            let assertion = request.appAttestAssertion?.data ?? Data()
            let counter = assertion.count == 71 ? assertion.dropFirst(35).prefix(4).reduce(0) { $0 << 8 | UInt32($1) } : 0
            guard assertion.prefix(35) == Data("ASR".utf8) + keyID, assertion.suffix(32) == Data(SHA256.hash(data: message)),
                counter > state.assertionCounters[keyID, default: 0]
            else {
                return (403, ErrorResponse(code: .appAttestAssertionInvalid, message: "No valid App Attest assertion."))
            }
            state.assertionCounters[keyID] = counter
        }
        return nil
    }
}
