import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// Every limit that keeps one client from filling the database or starving the others, each with
/// its clear error. Windows move with the test's clock, never the wall clock.
@Suite("Request limits: rates, sizes and timeouts")
struct RequestLimitTests {
    private func retryAfter(_ answer: APIResponse) -> Int? {
        answer.headers.first(where: { $0.name.canonicalName == "retry-after" }).flatMap { Int($0.value) }
    }

    @Test("requests per client address per minute: one more is 429 rate_limited with Retry-After, the next minute is open again")
    func requestsPerAddress() async throws {
        try await TestServer.run(configure: { $0.requestsPerMinutePerAddress = 5 }) { server in
            for _ in 0..<5 {
                #expect(try await server.api.call(.get, "/health").status == .ok)
            }
            let limited = try await server.api.expectError(.rateLimited, .get, "/health")
            #expect(limited.status == .tooManyRequests)
            let wait = try #require(retryAfter(limited))
            #expect((1...60).contains(wait))
            // Also the calls that would write: refused before they touch the database.
            let before = try await server.snapshot()
            try await server.api.expectError(
                .rateLimited,
                .post,
                "/v1/users",
                json: CreateUserRequest(username: "blocked", password: "correct horse battery")
            )
            #expect(try await server.snapshot() == before)
            server.clock.advance(seconds: TimeInterval(wait))
            #expect(try await server.api.call(.get, "/health").status == .ok)
        }
    }

    @Test(
        "the account page and its files are not counted per address (one page load fetches them all); every other request is, unknown paths included"
    )
    func pageFilesAreNotCounted() async throws {
        try await TestServer.run(configure: { $0.requestsPerMinutePerAddress = 2 }) { server in
            let files = ["/"] + AccountPageAssets.byName.keys.map { "/assets/\($0)" }
            for _ in 0..<3 {
                for file in files {
                    #expect(try await server.api.call(.get, file).status == .ok, "\(file)")
                }
            }
            // A path with no route counts too: with it and one call, the limit of 2 is reached.
            #expect(try await server.api.call(.get, "/no-such-page").status == .notFound)
            #expect(try await server.api.call(.get, "/health").status == .ok)
            try await server.api.expectError(.rateLimited, .post, "/web/sign-in/password", json: PasswordSignInRequest(username: "a", password: "b"))
            #expect(try await server.api.call(.get, "/assets/app.js").status == .ok)
        }
    }

    @Test("X-Forwarded-For is ignored unless trusted: a client cannot rotate it to escape the limit")
    func forwardedForIgnoredByDefault() async throws {
        try await TestServer.run(configure: { $0.requestsPerMinutePerAddress = 3 }) { server in
            for index in 0..<3 {
                #expect(try await server.api.call(.get, "/health", headers: [.init("X-Forwarded-For")!: "10.0.0.\(index)"]).status == .ok)
            }
            try await server.api.expectError(.rateLimited, .get, "/health")
            let rotated = try await server.api.call(.get, "/health", headers: [.init("X-Forwarded-For")!: "10.9.9.9"])
            #expect(rotated.errorCode == .rateLimited)
        }
    }

    @Test("behind a trusted proxy each forwarded address has its own limit; one busy client does not starve another")
    func forwardedForTrusted() async throws {
        try await TestServer.run(configure: {
            $0.requestsPerMinutePerAddress = 3
            $0.trustForwardedFor = true
        }) { server in
            let busy: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.1, 10.0.0.1"]
            let calm: HTTPFields = [.init("X-Forwarded-For")!: "10.0.0.2"]
            for _ in 0..<3 {
                let answer = try await server.api.call(.get, "/health", headers: busy)
                #expect(answer.status == .ok)
            }
            let limited = try await server.api.call(.get, "/health", headers: busy)
            #expect(limited.errorCode == .rateLimited)
            let other = try await server.api.call(.get, "/health", headers: calm)
            #expect(other.status == .ok)
        }
    }

    @Test("challenges per registration per minute: one more is 429 rate_limited and stores nothing")
    func challengesPerRegistration() async throws {
        try await TestServer.run(configure: { $0.challengesPerRegistrationPerMinute = 2 }) { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
            let other = try await server.api.register(.ed25519(), token: account.sessionToken)
            _ = try await server.api.challenge(for: registration.id)
            _ = try await server.api.challenge(for: registration.id)
            let before = try await server.snapshot()
            let limited = try await server.api.expectError(
                .rateLimited,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: registration.id)
            )
            let wait = try #require(retryAfter(limited))
            #expect((1...60).contains(wait))
            #expect(try await server.snapshot() == before)
            // Per registration: another one is not affected.
            _ = try await server.api.challenge(for: other.id)
            server.clock.advance(seconds: TimeInterval(wait))
            _ = try await server.api.biometricSignIn(key, registrationID: registration.id)
        }
    }

    @Test("pending registrations per user: one more is 409 too_many_registrations until one is verified or deleted")
    func pendingRegistrationsPerUser() async throws {
        try await TestServer.run(configure: { $0.maxPendingRegistrationsPerUser = 2 }) { server in
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            let first = SoftwareDeviceKey.ed25519()
            let started = try await server.api.startRegistration(first, token: token)
            let second = try await server.api.startRegistration(.ed25519(), token: token)
            let before = try await server.snapshot()
            try await server.api.expectRegistrationRefused(.tooManyRegistrations, token: token)
            #expect(try await server.snapshot() == before)
            // Verifying one frees a pending slot.
            let signature = first.sign(.registration, registrationID: started.registrationID, challenge: started.challenge.data)
            _ = try await server.api.expect(
                .ok,
                RegistrationResponse.self,
                .post,
                "/v1/biometric/registrations/\(started.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: token
            )
            _ = try await server.api.startRegistration(.ed25519(), token: token)
            // Deleting one frees one too.
            try await server.api.expectRegistrationRefused(.tooManyRegistrations, token: token)
            #expect(try await server.api.call(.delete, "/v1/biometric/registrations/\(second.registrationID)", token: token).status == .noContent)
            _ = try await server.api.startRegistration(.ed25519(), token: token)
        }
    }

    @Test("a request head over the limit is 400 invalid_request in the error shape, and changes nothing")
    func headerSizeLimit() async throws {
        try await TestServer.run(configure: { $0.maxHeaderBytes = 4_096 }) { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            let big: HTTPFields = [.init("X-Padding")!: String(repeating: "a", count: 5_000)]
            let answer = try await server.api.call(
                .post,
                "/v1/users",
                json: CreateUserRequest(username: "padded", password: "correct horse battery"),
                headers: big
            )
            #expect(answer.errorCode == .invalidRequest)
            #expect(try await server.api.call(.get, "/v1/sessions/current", token: account.sessionToken, headers: big).errorCode == .invalidRequest)
            #expect(try await server.snapshot() == before)
            // Just under the limit is served.
            let fits: HTTPFields = [.init("X-Padding")!: String(repeating: "a", count: 3_000)]
            #expect(try await server.api.call(.get, "/health", headers: fits).status == .ok)
        }
    }

    @Test("a stalled client is disconnected after the request timeout; others are served meanwhile")
    func stalledClientIsDisconnected() async throws {
        // 1 s rather than less: the deadline counts from connection set-up, and on a loaded 2-core
        // machine running tests in parallel the honest request must still arrive within it.
        try await TestServer.run(configure: { $0.requestTimeout = .seconds(1) }) { server in
            let port = server.loopback.port
            let stalledHead = try RawSocket(port: port)
            stalledHead.send("POST /v1/users HTTP/1.1\r\nHost: localhost\r\nContent-Le")
            let stalledBody = try RawSocket(port: port)
            stalledBody.send("POST /v1/users HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{\"username\":")
            // An honest client on its own connection is served meanwhile (the test's HTTP client
            // would itself be idle-closed at this timeout, so this one speaks raw HTTP too).
            let honest = try RawSocket(port: port)
            honest.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let answer = String(decoding: honest.readUntilClosed() ?? Data(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            // Each read returns once the server closes the connection (bounded by 20 s, never reached).
            let head = stalledHead.readUntilClosed()
            let body = stalledBody.readUntilClosed()
            #expect(head != nil, "a client stalled in its headers still holds its connection")
            #expect(body != nil, "a client stalled in its body still holds its connection")
        }
    }

    @Test("a client that trickles its request head, byte by byte, is disconnected when the request timeout runs out")
    func tricklingClientIsDisconnected() async throws {
        try await TestServer.run(configure: { $0.requestTimeout = .milliseconds(400) }) { server in
            let port = server.loopback.port
            let slow = try RawSocket(port: port)
            slow.send("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            // The head is never finished (no blank line).
            #expect(try await slow.trickle("a"), "the server closed the connection before the slow request was complete")
            #expect(slow.readUntilClosed() ?? Data() == Data(), "closed without an answer")
        }
    }

    @Test("a client that trickles its body, byte by byte, is cut off once the request timeout runs out")
    func tricklingBodyIsCutOff() async throws {
        try await TestServer.run(configure: { $0.requestTimeout = .milliseconds(400) }) { server in
            let port = server.loopback.port
            let slow = try RawSocket(port: port)
            slow.send("POST /v1/users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
            // 600 bytes can never complete the 1000-byte body.
            #expect(try await slow.trickle(" "), "the server closed the connection before the slow body was complete")
        }
    }

    /// Routes that answer without reading a body: `/health`, a 401, a 404 and a 405.
    static let unreadBodies = ["GET /health", "GET /v1/sessions/current", "GET /v1/no-such-route", "DELETE /health"]

    @Test(
        "a body no route reads, trickled byte by byte (by length or chunked), is cut off once the request timeout of its head runs out",
        arguments: unreadBodies,
        [false, true]
    )
    func tricklingUnreadBodyIsCutOff(_ request: String, chunked: Bool) async throws {
        try await TestServer.run(configure: { $0.requestTimeout = .milliseconds(400) }) { server in
            let slow = try RawSocket(port: server.loopback.port)
            // 1000 bytes promised (a chunk of 0x3e8), at most 100 sent: the body never ends.
            let framing = chunked ? "Transfer-Encoding: chunked\r\n\r\n3e8\r\n" : "Content-Length: 1000\r\n\r\n"
            slow.send("\(request) HTTP/1.1\r\nHost: localhost\r\n\(framing)")
            let start = ContinuousClock.now
            #expect(try await slow.trickle(" ", limit: 100), "\(request): the connection outlived 10 s of trickled body")
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }
}
