import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Testing

/// `BioAuthClient.accessToken()` against the real server over loopback: tokens for the app's
/// backend, one request however many ask, dropped with the session, never a prompt. Time passes on
/// the simulated phone's clock; `RecordingTransport` counts the requests.
@Suite("Client: access tokens against the real server")
struct ClientAccessTokenTests {
    static let path = Endpoint.createAccessToken.template

    @Test("a cached token is reused; with less than 60 s left a new one is minted; the token is the server's JWS for this user")
    func cachedThenRefreshed() async throws {
        try await LoopbackServer.run { server in
            let tap = RecordingTransport()
            let account = try await Account.signedIn(on: server, transport: tap)
            let first = try await account.client.accessToken()
            #expect(first.token.split(separator: ".").count == 3)
            let claims = try #require(Self.claims(of: first.token))
            #expect(claims["sub"] as? String == (await account.client.user)?.id)
            let lifetime = first.expiresAt.timeIntervalSinceNow
            account.device.advanceClock(by: lifetime - 61)
            #expect(try await account.client.accessToken() == first)
            account.device.advanceClock(by: 2)
            #expect(try await account.client.accessToken() != first)
            #expect(tap.requests.filter { $0.url?.path == Self.path }.count == 2)
        }
    }

    @Test("20 concurrent callers make exactly one request")
    func concurrentCallersShareOneRequest() async throws {
        try await LoopbackServer.run { server in
            let tap = RecordingTransport()
            let account = try await Account.signedIn(on: server, transport: tap)
            let client = account.client
            let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
                for _ in 0..<20 { group.addTask { try await client.accessToken() } }
                return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
            }
            #expect(Set(tokens.map(\.token)).count == 1)
            #expect(tap.requests.filter { $0.url?.path == Self.path }.count == 1)
        }
    }

    @Test("sign-out drops the cached token; the session ended elsewhere is a 401 that signs the client out")
    func signOutAndEndedSession() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            let first = try await account.client.accessToken()
            try await account.client.signOut()
            #expect(await caught { try await account.client.accessToken() } == .notSignedIn)
            try await account.client.signIn(username: account.username, password: Account.password)
            let second = try await account.client.accessToken()
            #expect(second != first)

            let other = server.client(on: SimulatedDevice())
            try await other.signIn(username: account.username, password: Account.password)
            try await other.signOutEverywhereElse()
            #expect(try await account.client.accessToken() == second, "a cached token lives out its minutes without asking the server")
            account.device.advanceClock(by: 3600)
            let error = await caught { try await account.client.accessToken() }
            #expect(error?.serverCode == .invalidSession)
            #expect(error?.rejection?.status == 401)
            #expect(await account.client.session == nil)
        }
    }

    @Test("a refresh in a session that biometric sign-in made never shows a prompt")
    func refreshNeverPrompts() async throws {
        try await LoopbackServer.run { server in
            let account = try await Account.signedIn(on: server)
            try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "Sign in to Bank")
            let prompts = account.device.promptCount
            for _ in 0..<3 {
                _ = try await account.client.accessToken()
                account.device.advanceClock(by: 3600)
            }
            #expect(account.device.promptCount == prompts)
        }
    }

    /// The payload of a compact JWS, decoded without checking it (the server's tests check signatures).
    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Data(referenceBase64URL: String(parts[1])) else { return nil }
        return (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    }
}
