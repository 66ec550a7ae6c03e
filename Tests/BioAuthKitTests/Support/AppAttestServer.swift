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

/// A fake App Attest "Apple": an attestation is `"ATT" | key id | clientDataHash`, an assertion
/// `"ASR" | key id | counter (4 bytes) | clientDataHash`. Enough for the server below to check
/// which key vouched and over what.
struct FakeAppAttestMaker: AppAttestObjectMaker {
    func attestation(keyID: Data, publicKey: Data, clientDataHash: Data) throws -> Data {
        Data("ATT".utf8) + keyID + clientDataHash
    }

    func assertion(keyID: Data, privateKey: Data, counter: UInt32, clientDataHash: Data) throws -> Data {
        Data("ASR".utf8) + keyID + withUnsafeBytes(of: counter.bigEndian) { Data($0) } + clientDataHash
    }
}

/// The parts of a BioAuth server a key registration talks to, with `--key-attestation` as
/// `mode` says; it checks the fake evidence as the real server checks Apple's (the challenge it
/// issued, the client data hash of the key being registered, a key it verified before for an
/// assertion) and records every start request.
final class AppAttestServer: HTTPTransport, @unchecked Sendable {
    typealias Mode = AttestationChallengeResponse.Mode
    enum ChallengeEndpoint { case offered, missingWithContractError, missingPlain }

    struct Start {
        var publicKey: Data
        var evidence: KeyAttestationEvidence?
        var status: Int
    }

    struct State {
        var mode: Mode = .prefer
        var challengeEndpoint: ChallengeEndpoint = .offered
        var issued: [Data] = []
        var challengeRequests = 0
        var remembersChallenges = true
        var knownKeys: [Data: UInt32] = [:]
        var starts: [Start] = []
        var pending: [String: KeyAttestationResult?] = [:]
        var next = 0
    }

    private let state = Locked(State())
    static let relyingPartyID = "bank.example"

    func with<T>(_ body: (inout State) -> T) -> T { state.withLock(body) }

    var starts: [Start] { with { $0.starts } }
    var challengeRequests: Int { with { $0.challengeRequests } }
    var issued: [Data] { with { $0.issued } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let method = request.httpMethod ?? "GET"
        let body = request.httpBody ?? Data()
        let (status, answer): (Int, (any Encodable)?) = with { state in route(method, path, body, &state) }
        let data = try answer.map { try WireJSON.makeEncoder().encode($0) } ?? Data()
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (data, response)
    }

    private func route(_ method: String, _ path: String, _ body: Data, _ state: inout State) -> (Int, (any Encodable)?) {
        let decoder = WireJSON.makeDecoder()
        switch (method, path) {
        case ("POST", "/v1/sessions/password"):
            let now = Date()
            let user = User(id: "usr_1", username: "alice", createdAt: now)
            let session = Session(
                id: "ses_1",
                userID: user.id,
                createdAt: now,
                expiresAt: now + 3600,
                authentication: .init(method: .password)
            )
            return (200, SignInResponse(sessionToken: "token_1", session: session, user: user))
        case ("POST", "/v1/biometric/attestation-challenges"):
            state.challengeRequests += 1
            switch state.challengeEndpoint {
            case .offered:
                let challenge = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
                if state.remembersChallenges { state.issued.append(challenge) }
                return (201, AttestationChallengeResponse(challenge: challenge, expiresAt: Date() + 120, mode: state.mode))
            case .missingWithContractError:
                return (404, ErrorResponse(code: .notFound, message: "No such route."))
            case .missingPlain:
                return (404, nil)
            }
        case ("POST", "/v1/biometric/registrations"):
            guard let request = try? decoder.decode(StartRegistrationRequest.self, from: body) else { return (400, nil) }
            return start(publicKey: request.publicKey.data, evidence: request.keyAttestation, &state)
        case ("PUT", "/v1/users/me/pin"):
            guard let request = try? decoder.decode(SetPINRequest.self, from: body) else { return (400, nil) }
            return start(publicKey: request.publicKey.data, evidence: request.keyAttestation, &state)
        case ("POST", _) where path.hasPrefix("/v1/biometric/registrations/") && path.hasSuffix("/verify"):
            let id = path.split(separator: "/")[3]
            guard let result = state.pending.removeValue(forKey: String(id)) else { return (404, nil) }
            let registration = Registration(
                id: String(id),
                algorithm: .es256,
                label: "",
                status: .active,
                createdAt: Date(),
                lastUsedAt: nil,
                attestation: result
            )
            return (200, RegistrationResponse(registration: registration))
        case ("DELETE", _):
            return (204, nil)
        default:
            return (404, nil)
        }
    }

    private func start(publicKey: Data, evidence: KeyAttestationEvidence?, _ state: inout State) -> (Int, (any Encodable)?) {
        var result: KeyAttestationResult?
        if state.mode != .none {
            if let evidence {
                switch examine(evidence, publicKey: publicKey, &state) {
                case nil: result = KeyAttestationResult(format: evidence.format, verdict: .verified, securityLevel: "Secure Enclave")
                case let reason?: result = KeyAttestationResult(format: evidence.format, verdict: .refused, reason: reason)
                }
            } else {
                result = KeyAttestationResult(format: nil, verdict: .absent)
            }
        }
        if state.mode == .require, let result, result.verdict != .verified {
            state.starts.append(Start(publicKey: publicKey, evidence: evidence, status: 403))
            return result.verdict == .absent
                ? (403, ErrorResponse(code: .attestationRequired, message: "Evidence required."))
                : (403, ErrorResponse(code: .attestationRefused, message: "Refused.", reason: result.reason))
        }
        // Verified evidence is spent and an attested key kept only when the registration starts.
        if result?.verdict == .verified, let evidence, let keyID = evidence.keyID?.data {
            state.issued.removeAll { $0 == evidence.challenge.data }
            state.knownKeys[keyID] = Self.counter(evidence) ?? 0
        }
        state.starts.append(Start(publicKey: publicKey, evidence: evidence, status: 201))
        state.next += 1
        let id = "reg_\(state.next)"
        state.pending[id] = .some(result)
        return (201, RegistrationStartResponse(registrationID: id, challenge: Data(repeating: 9, count: 32), expiresAt: Date() + 120))
    }

    /// `nil` when the evidence verifies, else the refusal's reason.
    private func examine(_ evidence: KeyAttestationEvidence, publicKey: Data, _ state: inout State) -> String? {
        guard state.issued.contains(evidence.challenge.data) else { return "challenge_mismatch" }
        guard let keyID = evidence.keyID?.data, keyID.count == 32 else { return "evidence_malformed" }
        guard
            let message = try? KeyAttestationMessage(relyingPartyID: Self.relyingPartyID, publicKey: publicKey, challenge: evidence.challenge.data)
                .encoded()
        else { return "evidence_malformed" }
        let clientDataHash = Data(SHA256.hash(data: message))
        switch (evidence.attestation?.data, evidence.assertion?.data) {
        case (let attestation?, nil):
            guard attestation == Data("ATT".utf8) + keyID + clientDataHash else { return "challenge_mismatch" }
            return nil
        case (nil, let assertion?):
            guard let previous = state.knownKeys[keyID] else { return "key_mismatch" }
            guard assertion.prefix(35) == Data("ASR".utf8) + keyID, assertion.suffix(32) == clientDataHash,
                let counter = Self.counter(evidence), counter > previous
            else { return "assertion_invalid" }
            return nil
        default:
            return "evidence_malformed"
        }
    }

    private static func counter(_ evidence: KeyAttestationEvidence) -> UInt32? {
        guard let assertion = evidence.assertion?.data, assertion.count == 3 + 32 + 4 + 32 else { return nil }
        return assertion.dropFirst(35).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
