import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// Hostile and honest traffic at the same time: garbage bytes, malformed HTTP, bad JSON, huge
/// bodies, forged tokens and signatures, rate-limit floods, while well-formed clients run every
/// ceremony. Every honest answer must be exactly right, and the server must stay up.
@Suite("Hostile traffic")
struct HostileTrafficTests {
    /// One honest client's whole life: sign-up, password, key registration, three biometric
    /// sign-ins, listing, audit, sign-out. Returns the problems it saw (empty when all was right).
    static func honestClient(_ client: ParallelClient, index: Int) async throws -> [String] {
        var problems: [String] = []
        let address: HTTPFields = [.init("X-Forwarded-For")!: "192.0.2.\(index + 1)"]
        func check(_ answer: APIResponse, _ status: HTTPResponse.Status, _ step: String) {
            if answer.status != status {
                problems.append("client \(index) \(step): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
        }
        let username = "honest-\(index)-\(UUID().uuidString.prefix(6))"
        let signUp = try await client.call(
            .post,
            "/v1/users",
            json: CreateUserRequest(username: username, password: "correct horse battery"),
            headers: address
        )
        check(signUp, .created, "sign-up")
        let signIn = try await client.call(
            .post,
            "/v1/sessions/password",
            json: PasswordSignInRequest(username: username, password: "correct horse battery"),
            headers: address
        )
        check(signIn, .ok, "password sign-in")
        guard let token = try? signIn.decode(SignInResponse.self).sessionToken else { return problems + ["client \(index): no token"] }

        let key = index.isMultiple(of: 2) ? SoftwareDeviceKey.es256() : SoftwareDeviceKey.ed25519()
        let start = try await client.call(
            .post,
            "/v1/biometric/registrations",
            json: StartRegistrationRequest(algorithm: key.algorithm, publicKey: key.publicKey(), label: "phone"),
            token: token,
            headers: address
        )
        check(start, .created, "start registration")
        guard let started = try? start.decode(RegistrationStartResponse.self) else { return problems + ["client \(index): no registration"] }
        let proof = key.sign(.registration, registrationID: started.registrationID, challenge: started.challenge.data)
        check(
            try await client.call(
                .post,
                "/v1/biometric/registrations/\(started.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: proof),
                token: token,
                headers: address
            ),
            .ok,
            "verify registration"
        )
        var biometricSessions: Set<String> = []
        for round in 0..<3 {
            let issued = try await client.call(
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: started.registrationID),
                headers: address
            )
            check(issued, .created, "challenge \(round)")
            guard let challenge = try? issued.decode(ChallengeResponse.self) else { continue }
            let signature = key.sign(.authentication, registrationID: started.registrationID, challenge: challenge.challenge.data)
            let session = try await client.call(
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: challenge.challengeID, signature: signature),
                headers: address
            )
            check(session, .ok, "biometric sign-in \(round)")
            if let signedIn = try? session.decode(SignInResponse.self) {
                if signedIn.user.username != username { problems.append("client \(index): biometric session for \(signedIn.user.username)") }
                biometricSessions.insert(signedIn.session.id)
            }
        }
        let listed = try await client.call(.get, "/v1/sessions", token: token, headers: address)
        check(listed, .ok, "list sessions")
        if let sessions = try? listed.decode(SessionListResponse.self) {
            // password + three biometric, all the caller's own.
            if sessions.sessions.count != 4 { problems.append("client \(index): \(sessions.sessions.count) sessions, expected 4") }
            if !biometricSessions.isSubset(of: Set(sessions.sessions.map(\.id))) {
                problems.append("client \(index): a biometric session is missing")
            }
        }
        let registrations = try await client.call(.get, "/v1/biometric/registrations", token: token, headers: address)
        if let list = try? registrations.decode(RegistrationListResponse.self), list.registrations.map(\.status) != [.active] {
            problems.append("client \(index): registrations \(list.registrations.map(\.status))")
        }
        check(try await client.call(.get, "/v1/audit", token: token, headers: address), .ok, "audit")
        check(try await client.call(.delete, "/v1/sessions/current", token: token, headers: address), .noContent, "sign-out")
        check(try await client.call(.get, "/v1/sessions/current", token: token, headers: address), .unauthorized, "after sign-out")
        return problems
    }

    /// Garbage over raw TCP: not HTTP, broken HTTP, an oversized head, a lying Content-Length.
    static func rawGarbage(port: Int, round: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let payloads: [Data] = [
            Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            Data("GET / HTTP/9.9\r\n\r\n".utf8),
            Data("POST /v1/users HTTP/1.1\r\nHost x\r\nno colon here\r\n\r\n".utf8),
            Data("GET /health HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 120_000))\r\n\r\n".utf8),
            Data("\r\n\r\n\u{0}\u{0}GARBAGE /../../etc/passwd HTTP/1.1\r\n\r\n".utf8),
        ]
        let socket = try RawSocket(port: port)
        socket.send(payloads[round % payloads.count])
        socket.finishSending()
        _ = socket.readUntilClosed()
    }

    /// ``rawGarbage(port:round:)`` on a Dispatch thread: its blocking reads must not hold the
    /// cooperative pool the honest clients run on.
    static func rawGarbageOffPool(port: Int, round: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                do {
                    try rawGarbage(port: port, round: round)
                    continuation.resume()
                } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// Well-formed HTTP with hostile content, from addresses of its own.
    static func hostileRequests(_ client: ParallelClient, round: Int) async throws {
        let address: HTTPFields = [.init("X-Forwarded-For")!: "198.51.100.\(round % 4)"]
        let huge = Data(#"{"username":"\#(String(repeating: "x", count: 70_000))","password":"p"}"#.utf8)
        switch round % 8 {
        case 0: _ = try await client.call(.post, "/v1/users", raw: Data("{\"username\": [".utf8), headers: address)
        case 1: _ = try await client.call(.post, "/v1/users", raw: huge, headers: address)
        case 2: _ = try await client.call(.get, "/v1/sessions", token: "bat_" + String(repeating: "A", count: 43), headers: address)
        case 3:
            _ = try await client.call(
                .post,
                "/v1/sessions/biometric",
                json: BiometricSignInRequest(challengeID: "chl_" + String(repeating: "0", count: 32), signature: Data(count: 64)),
                headers: address
            )
        case 4:
            _ = try await client.call(
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: "reg_\(round)"),
                headers: address
            )
        case 5:
            _ = try await client.call(
                .post,
                "/v1/sessions/password",
                json: PasswordSignInRequest(username: "victim-\(round % 3)", password: "guess \(round)!"),
                headers: address
            )
        case 6: _ = try await client.call(.delete, "/v1/biometric/registrations/reg_x", token: "not a token", headers: address)
        default: _ = try await client.call(.post, "/v1/users", raw: Data([0xFF, 0xFE, 0x00, 0x7B]), headers: address)
        }
    }

    @Test("garbage and floods from hostile clients never change a well-formed client's answers")
    func hostileAndHonestTogether() async throws {
        try await TestServer.run(configure: {
            $0.trustForwardedFor = true
            $0.requestsPerMinutePerAddress = 40
        }) { server in
            let client = try ParallelClient(server)
            let port = client.port
            let problems = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<6 {
                    group.addTask { try await Self.honestClient(client, index: index) }
                }
                for worker in 0..<4 {
                    group.addTask {
                        for round in 0..<60 {
                            if round.isMultiple(of: 3) {
                                try await Self.rawGarbageOffPool(port: port, round: round / 3 + worker)
                            } else {
                                try await Self.hostileRequests(client, round: round * 4 + worker)
                            }
                        }
                        return []
                    }
                }
                return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
            }
            #expect(problems.isEmpty, "honest clients saw: \(problems)")
            // The hostile addresses were cut off by their own limit, not the honest ones.
            let limited = try await client.call(.get, "/health", headers: [.init("X-Forwarded-For")!: "198.51.100.1"])
            #expect(limited.errorCode == .rateLimited)
            #expect(try await client.call(.get, "/health", headers: [.init("X-Forwarded-For")!: "192.0.2.200"]).status == .ok)
            let snapshot = try await server.snapshot()
            #expect(snapshot.tables["users", default: []].count == 6)
            #expect(snapshot.tables["registrations", default: []].count == 6)
        }
    }
}
