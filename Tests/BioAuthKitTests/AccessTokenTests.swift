import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

/// ``BioAuthClient/accessToken()``: a token valid for at least the next minute, one request however
/// many callers ask at once, dropped with the session, never a prompt. Time passes on the simulated
/// device's clock (``SimulatedDevice/advanceClock(by:)``); the server runs in ``TokenServer``.
/// server/Tests/BioAuthClientTests/ClientAccessTokenTests.swift runs the same against a real server.
@Suite("Access tokens for the app's backend")
struct AccessTokenTests {
    let device = SimulatedDevice()
    let server = TokenServer()

    func signedInClient() async throws -> BioAuthClient {
        let client = BioAuthClient(
            configuration: BioAuthConfiguration(serverURL: URL(string: "https://auth.bank.example")!, relyingPartyID: "bank.example"),
            device: device.backends,
            transport: server
        )
        try await client.signIn(username: "alice", password: "correct horse")
        return client
    }

    @Test("a cached token is reused: two calls, one request")
    func cachedTokenIsReused() async throws {
        let client = try await signedInClient()
        let first = try await client.accessToken()
        device.advanceClock(by: 30)
        let second = try await client.accessToken()
        #expect(first == second)
        #expect(server.tokenRequestCount == 1)
    }

    @Test("a token with less than 60 s left is refreshed; with 61 s left it is reused")
    func tokenNearItsEndIsRefreshed() async throws {
        let client = try await signedInClient()
        let first = try await client.accessToken()
        device.advanceClock(by: 300 - 61)
        #expect(try await client.accessToken() == first)
        #expect(server.tokenRequestCount == 1)
        device.advanceClock(by: 2)
        let second = try await client.accessToken()
        #expect(second != first)
        #expect(server.tokenRequestCount == 2)
    }

    @Test("the lifetime counts from receipt by the device's clock, not from the server's expires_at against the device's date")
    func lifetimeCountsFromReceipt() async throws {
        server.with { $0.clockAhead = -3600 }  // the device's date is an hour ahead of the server's
        let client = try await signedInClient()
        let first = try await client.accessToken()
        device.advanceClock(by: 200)
        #expect(try await client.accessToken() == first)
        #expect(server.tokenRequestCount == 1)
        #expect(abs(first.expiresAt.timeIntervalSinceNow - 300) < 30)
    }

    @Test("20 concurrent callers make exactly one request and all get its token")
    func concurrentCallersShareOneRequest() async throws {
        let client = try await signedInClient()
        server.with { $0.held = true }
        let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
            for _ in 0..<20 { group.addTask { try await client.accessToken() } }
            while server.tokenRequestCount == 0 { try await Task.sleep(nanoseconds: 2_000_000) }
            try await Task.sleep(nanoseconds: 100_000_000)  // the other 19 callers arrive while the request is held
            server.with { $0.held = false }
            return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
        }
        #expect(tokens.count == 20)
        #expect(Set(tokens.map(\.token)).count == 1)
        #expect(server.tokenRequestCount == 1)
    }

    @Test("sign-out drops the cached token: signed out there is none, and the next sign-in's token is its own")
    func signOutDropsTheCache() async throws {
        let client = try await signedInClient()
        let first = try await client.accessToken()
        try await client.signOut()
        #expect(await caught { try await client.accessToken() } == .notSignedIn)
        try await client.signIn(username: "alice", password: "correct horse")
        let second = try await client.accessToken()
        #expect(second != first)
        #expect(server.with { $0.tokenRequests } == ["session_1", "session_2"])
    }

    @Test("a sign-out while a request is under way: the token it brings is not kept, and its callers are told they are signed out")
    func signOutDuringARequest() async throws {
        let client = try await signedInClient()
        server.with { $0.held = true }
        let waiting = Task { await caught { try await client.accessToken() } }
        while server.tokenRequestCount == 0 { try await Task.sleep(nanoseconds: 2_000_000) }
        try await client.signOut()
        server.with { $0.held = false }
        #expect(await waiting.value == .notSignedIn)
        try await client.signIn(username: "alice", password: "correct horse")
        _ = try await client.accessToken()
        #expect(server.with { $0.tokenRequests } == ["session_1", "session_2"])
    }

    @Test("a re-authentication drops the cached token: the next one says the fresh proof")
    func reauthenticationDropsTheCache() async throws {
        let client = try await signedInClient()
        let first = try await client.accessToken()
        try await client.reauthenticate(password: "correct horse")
        #expect(try await client.accessToken() != first)
        #expect(server.tokenRequestCount == 2)
    }

    @Test("a 401 from the server means the session is over: invalid_session, the client signed out, no token kept")
    func unauthorizedSignsOut() async throws {
        let client = try await signedInClient()
        _ = try await client.accessToken()
        server.end("session_1")
        device.advanceClock(by: 250)
        let error = await caught { try await client.accessToken() }
        #expect(error?.serverCode == .invalidSession)
        #expect(error?.rejection?.status == 401)
        #expect(await client.session == nil)
        #expect(await caught { try await client.accessToken() } == .notSignedIn)
        #expect(server.tokenRequestCount == 2)
    }

    @Test("a refresh never shows a prompt")
    func refreshNeverPrompts() async throws {
        let client = try await signedInClient()
        for _ in 0..<5 {
            _ = try await client.accessToken()
            device.advanceClock(by: 250)
        }
        #expect(server.tokenRequestCount == 5)
        #expect(device.promptCount == 0)
    }

    @Test("signed out, there is no token and no request")
    func signedOutHasNoToken() async throws {
        let client = BioAuthClient(
            configuration: BioAuthConfiguration(serverURL: URL(string: "https://auth.bank.example")!, relyingPartyID: "bank.example"),
            device: device.backends,
            transport: server
        )
        #expect(await caught { try await client.accessToken() } == .notSignedIn)
        #expect(server.tokenRequestCount == 0)
    }

    @Test("an access token's description leaves the token out, for logs")
    func descriptionHasNoToken() {
        let token = AccessToken(token: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln", expiresAt: Date())
        #expect(!token.description.contains("eyJ"))
        #expect(token.authorizationHeader == "Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln")
    }
}
