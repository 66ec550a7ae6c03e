import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Synchronization
import Testing

@testable import BioAuthServer

@Suite("Races: of concurrent attempts exactly one wins")
struct RaceTests {
    @Test("16 concurrent completions of one challenge give exactly one session")
    func concurrentCompletionsOfOneChallenge() async throws {
        try await TestServer.run { server in
            let (account, key, registration) = try await server.api.newAccountWithKey()
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
                        try await server.api.call(
                            .post,
                            "/v1/sessions/password",
                            json: PasswordSignInRequest(username: user.username, password: "wrong password!")
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.errorCode == .invalidCredentials }.count == 5)
            #expect(answers.filter { $0.errorCode == .locked }.count == 7)
        }
    }

    @Test("parallel registrations of one public key, by different users on separate connections, give exactly one")
    func parallelRegistrationsOfOneKey() async throws {
        try await TestServer.run { server in
            let parallel = try ParallelClient(server)
            var tokens: [String] = []
            for _ in 0..<12 { tokens.append(try await server.api.newAccount().sessionToken) }
            let key = SoftwareDeviceKey.es256()
            let request = StartRegistrationRequest(algorithm: key.algorithm, publicKey: key.publicKey(), label: "race")
            let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for token in tokens {
                    group.addTask { try await parallel.call(.post, "/v1/biometric/registrations", json: request, token: token) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == .created }.count == 1)
            #expect(answers.filter { $0.errorCode == .duplicateRegistration }.count == 11)
            #expect(try await server.snapshot().tables["registrations", default: []].count == 1)
        }
    }

    @Test("parallel sign-ups of one username on separate connections give exactly one account")
    func parallelSignUpsOfOneUsername() async throws {
        // Twelve clients, each from its own address, all hashing at once: room in the hashing queue for all.
        try await TestServer.run(configure: {
            $0.trustForwardedFor = true
            $0.hashQueue = 16
        }) { server in
            let parallel = try ParallelClient(server)
            let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<12 {
                    // Different spellings of one name: case and NFKC fold them together.
                    let name = index.isMultiple(of: 2) ? "Racer" : "racer"
                    group.addTask {
                        try await parallel.call(
                            .post,
                            "/v1/users",
                            json: CreateUserRequest(username: name, password: "correct horse battery"),
                            headers: [.init("X-Forwarded-For")!: "192.0.2.\(index + 1)"]
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == .created }.count == 1)
            #expect(answers.filter { $0.errorCode == .usernameTaken }.count == 11)
            #expect(try await server.snapshot().tables["users", default: []].count == 1)
        }
    }

    @Test("a UNIQUE violation the pre-check missed is recognised, so a cross-instance race is a 409, not a 500")
    func uniqueViolationIsRecognised() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let database = server.server.database
            let error = await #expect(throws: (any Error).self) {
                try await database.withDatabase { db in
                    try await db.raw(
                        "INSERT INTO users (id, username, username_key, username_skeleton, password_hash, created_at) SELECT 'usr_x', username, username_key, username_skeleton || 'x', password_hash, 0 FROM users WHERE id = \(bind: account.user.id)"
                    ).run()
                }
            }
            #expect(database.isUniqueViolation(try #require(error)))
            #expect(!database.isUniqueViolation(Rejection(.invalidRequest, "not a database error")))
        }
    }

    @Test("sign-out racing uses of its token: no use started after the sign-out answered succeeds")
    func signOutRacesTokenUse() async throws {
        try await TestServer.run { server in
            let parallel = try ParallelClient(server)
            let account = try await server.api.newAccount()
            let token = account.sessionToken
            let ticker = Ticker()
            let uses = try await withThrowingTaskGroup(of: [(started: Int, status: HTTPResponse.Status)].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var seen: [(started: Int, status: HTTPResponse.Status)] = []
                        for round in 0..<12 {
                            let started = ticker.tick()
                            let path = (worker + round).isMultiple(of: 2) ? "/v1/sessions/current" : "/v1/audit"
                            let answer = try await parallel.call(.get, path, token: token)
                            seen.append((started, answer.status))
                        }
                        return seen
                    }
                }
                group.addTask {
                    let answer = try await parallel.call(.delete, "/v1/sessions/current", token: token)
                    #expect(answer.status == .noContent)
                    // Marked by a negative tick: when the sign-out's answer had arrived.
                    return [(started: -ticker.tick(), status: answer.status)]
                }
                return try await group.reduce(into: []) { $0.append(contentsOf: $1) }
            }
            let signOut = try #require(uses.first(where: { $0.started < 0 }).map { -$0.started })
            let late = uses.filter { $0.started > signOut }
            #expect(late.allSatisfy { $0.status == .unauthorized }, "a request sent after the sign-out answered still used the token")
            #expect(uses.allSatisfy { $0.status == .ok || $0.status == .unauthorized || $0.status == .noContent })
            // Afterwards, certainly refused.
            #expect(try await parallel.call(.get, "/v1/sessions/current", token: token).status == .unauthorized)
        }
    }
}
