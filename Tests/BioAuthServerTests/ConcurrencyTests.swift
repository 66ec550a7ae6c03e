import BioAuthProtocol
import Foundation
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("16 concurrent completions of one challenge give exactly one session")
    func concurrentCompletionsOfOneChallenge() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let key = TestDeviceKey.es256()
            let registration = try await server.api.register(key, token: account.sessionToken)
            let request = try await server.api.signedAuthentication(key, registrationID: registration.id)
            let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await server.api.call(.post, "/v1/sessions/biometric", json: request) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == .ok }.count == 1)
            #expect(answers.filter { $0.errorCode == .challengeInvalid }.count == 15)
            let sessions = try await server.api.expect(.ok, SessionListResponse.self, .get, "/v1/sessions", token: account.sessionToken)
            #expect(sessions.sessions.filter { $0.authentication.method == .biometric }.count == 1)
        }
    }

    @Test("concurrent wrong passwords check at most five secrets before the lock")
    func concurrentWrongPasswordsLockExactly() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.errorCode == .invalidCredentials }.count == 5)
            #expect(answers.filter { $0.errorCode == .locked }.count == 7)
        }
    }
}
