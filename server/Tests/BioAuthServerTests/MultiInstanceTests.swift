import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

/// Two real `bioauth serve` processes over one PostgreSQL database, as a fleet runs: no state may
/// live in an instance. Runs in the PostgreSQL pass of `./scripts/test`.
@Suite("Several instances on one PostgreSQL", .enabled(if: TestDatabase.current == .postgres))
struct MultiInstanceTests {
    /// Instances A and B, started together (so their migrations race too) on a new database.
    private func withTwoInstances(_ body: @Sendable (ParallelClient, ParallelClient) async throws -> Void) async throws {
        try await TestDatabase.postgres.withFreshDatabase { url in
            let arguments = [
                "serve", "--port", "0", "--database", url, "--relying-party", LoopbackServer.relyingPartyID,
                "--password-cost", "10", "--requests-per-minute", "1000000", "--challenges-per-minute", "10000",
                "--hashes-per-address", "100", "--hash-queue", "100", "--log-level", "warning",
            ]
            let a = try ServeCommandTests.launch(arguments)
            let b = try ServeCommandTests.launch(arguments)
            defer {
                for process in [a, b] where process.process.isRunning { process.process.terminate() }
            }
            let portA = try await a.waitForPort()
            let portB = try await b.waitForPort()
            try await body(ParallelClient(port: portA), ParallelClient(port: portB))
            for process in [a, b] { kill(process.process.processIdentifier, SIGTERM) }
            #expect(try await a.waitForExit() == 0, "stderr A: \(a.stderr)")
            #expect(try await b.waitForExit() == 0, "stderr B: \(b.stderr)")
        }
    }

    @Test("a ceremony started on A completes on B, in both directions")
    func ceremonyAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let account = try await a.newAccount()
            let key = SoftwareDeviceKey.es256()
            let start = try await b.startRegistration(key, token: account.sessionToken)
            let registration = try await a.verifyRegistration(start, key: key, token: account.sessionToken)
            #expect(registration.status == .active)
            let signIn = try await b.exchange(
                .signInWithBiometric,
                id: nil,
                body: try await a.signedAuthentication(key, registrationID: registration.id),
                token: nil,
                as: SignInResponse.self
            )
            #expect(try await a.call(.get, "/v1/sessions/current", token: signIn.sessionToken).status == .ok)
        }
    }

    @Test("one signed completion sent to A and B at once gives exactly one session")
    func oneCompletionTwoInstances() async throws {
        try await withTwoInstances { a, b in
            let (account, key, registration) = try await a.newAccountWithKey(.ed25519())
            for _ in 0..<3 {
                let request = try await b.signedAuthentication(key, registrationID: registration.id)
                let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                    for index in 0..<16 {
                        let client = index.isMultiple(of: 2) ? a : b
                        group.addTask { try await client.call(.post, "/v1/sessions/biometric", json: request) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter { $0.status == .ok }.count == 1)
                #expect(answers.filter { $0.errorCode == .challengeInvalid }.count == 15)
            }
            let sessions = try await b.expect(.ok, SessionListResponse.self, .get, "/v1/sessions", token: account.sessionToken)
            #expect(sessions.sessions.filter { $0.authentication.method == .biometric }.count == 3)
        }
    }

    @Test("wrong passwords spread over A and B at once check at most five secrets, and the lock holds on both")
    func lockoutAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let user = try await a.signUp()
            let wrong = PasswordSignInRequest(username: user.username, password: "wrong password!", sessionDurationMinutes: nil)
            let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<20 {
                    let client = index.isMultiple(of: 2) ? a : b
                    group.addTask { try await client.call(.post, "/v1/sessions/password", json: wrong) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.errorCode == .invalidCredentials }.count == 5)
            #expect(answers.filter { $0.errorCode == .locked }.count == 15)
            let right = PasswordSignInRequest(username: user.username, password: "correct horse battery", sessionDurationMinutes: nil)
            for client in [a, b] {
                #expect(try await client.call(.post, "/v1/sessions/password", json: right).errorCode == .locked)
            }
        }
    }

    @Test("sign-out and registration deletion on A hold on B at once")
    func revocationAcrossInstances() async throws {
        try await withTwoInstances { a, b in
            let account = try await a.newAccount()
            let other = try await b.signIn(account.user.username)
            #expect(try await b.call(.delete, "/v1/sessions/current", token: account.sessionToken).status == .noContent)
            #expect(try await a.call(.get, "/v1/sessions/current", token: account.sessionToken).errorCode == .invalidSession)
            #expect(try await a.call(.get, "/v1/sessions/current", token: other.sessionToken).status == .ok)

            let key = SoftwareDeviceKey.es256()
            let registration = try await b.register(key, token: other.sessionToken)
            let biometric = try await a.biometricSignIn(key, registrationID: registration.id)
            let pending = try await b.signedAuthentication(key, registrationID: registration.id)
            #expect(try await a.call(.delete, "/v1/biometric/registrations/\(registration.id)", token: other.sessionToken).status == .noContent)
            #expect(try await b.call(.get, "/v1/sessions/current", token: biometric.sessionToken).errorCode == .invalidSession)
            #expect(try await b.call(.post, "/v1/sessions/biometric", json: pending).errorCode == .challengeInvalid)
            #expect(
                try await b.call(.post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: registration.id)).errorCode
                    == .registrationNotFound
            )
        }
    }
}
