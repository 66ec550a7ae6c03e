import BioAuthProtocol
import BioAuthTesting
import Foundation
import Synchronization
import Testing

/// SIGKILL in the middle of traffic, then a restart on the same database: whatever the
/// server answered as done is still done, and nothing it consumed comes back. Runs on SQLite and,
/// in the PostgreSQL pass of `./scripts/test`, on PostgreSQL.
@Suite("Crash safety")
struct CrashSafetyTests {
    /// What the clients saw before the crash.
    private final class Ledger: Sendable {
        struct State {
            var sessionTokens: [String] = []
            var registrations: [(token: String, id: String)] = []
            var completions: [(request: BiometricSignInRequest, answered: Bool)] = []  // every signed completion sent
        }
        let state = Mutex(State())
        let stopped = Mutex(false)
        var isStopped: Bool { stopped.withLock { $0 } }
    }

    private func serve(_ database: String) async throws -> (BioAuthProcess, ParallelClient) {
        let process = try ServeCommandTests.launch([
            "serve", "--port", "0", "--database", database, "--relying-party", LoopbackServer.relyingPartyID,
            "--password-cost", "10", "--requests-per-minute", "1000000", "--challenges-per-minute", "10000",
            "--max-registrations", "1000", "--max-pending-registrations", "1000", "--log-level", "warning",
        ])
        return (process, ParallelClient(port: try await process.waitForPort()))
    }

    @Test("SIGKILL during a stream of sign-ins and registrations loses no answered work and revives no challenge")
    func killDuringTraffic() async throws {
        try await TestDatabase.current.withFreshDatabase { database in
            let (first, client) = try await serve(database)
            defer { if first.process.isRunning { first.process.terminate() } }
            let (account, key, registration) = try await client.newAccountWithKey()
            let ledger = Ledger()

            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {  // biometric sign-ins
                    group.addTask {
                        while !ledger.isStopped {
                            guard let request = try? await client.signedAuthentication(key, registrationID: registration.id) else { continue }
                            let answer = try? await client.call(.post, "/v1/sessions/biometric", json: request)
                            ledger.state.withLock { $0.completions.append((request, answer != nil)) }
                            guard let answer, answer.status == .ok, let signIn = try? answer.decode(SignInResponse.self) else { continue }
                            ledger.state.withLock { $0.sessionTokens.append(signIn.sessionToken) }
                        }
                    }
                }
                for _ in 0..<2 {  // registrations of new keys
                    group.addTask {
                        while !ledger.isStopped {
                            let key = SoftwareDeviceKey.ed25519()
                            guard
                                let start = try? await client.call(
                                    .post,
                                    "/v1/biometric/registrations",
                                    json: StartRegistrationRequest(
                                        algorithm: key.algorithm,
                                        publicKey: key.publicKey(),
                                        label: "phone"
                                    ),
                                    token: account.sessionToken
                                ),
                                start.status == .created, let started = try? start.decode(RegistrationStartResponse.self)
                            else { continue }
                            ledger.state.withLock { $0.registrations.append((account.sessionToken, started.registrationID)) }
                            let signature = key.sign(.registration, registrationID: started.registrationID, challenge: started.challenge.data)
                            _ = try? await client.call(
                                .post,
                                "/v1/biometric/registrations/\(started.registrationID)/verify",
                                json: VerifyRegistrationRequest(signature: signature),
                                token: account.sessionToken
                            )
                        }
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(1500))
                    kill(first.process.processIdentifier, SIGKILL)
                    try? await Task.sleep(for: .milliseconds(200))
                    ledger.stopped.withLock { $0 = true }
                }
            }
            _ = try await first.waitForExit()
            let seen = ledger.state.withLock { $0 }
            #expect(seen.sessionTokens.count > 5, "the stream was running when the server died")

            let (second, after) = try await serve(database)
            defer { if second.process.isRunning { second.process.terminate() } }
            for token in seen.sessionTokens {
                #expect(try await after.call(.get, "/v1/sessions/current", token: token).status == .ok, "an answered sign-in's session survives")
            }
            let listed = try await after.registrationList(token: account.sessionToken)
            let ids = Set(listed.registrations.map(\.id))
            for (_, id) in seen.registrations {  // started (201) or verified, each answered
                #expect(ids.contains(id), "an answered registration survives")
            }
            for (request, answered) in seen.completions {
                // An answered completion consumed its challenge; one the crash cut off may not have
                // reached the database, and may then be used once, never twice.
                let again = try await after.call(.post, "/v1/sessions/biometric", json: request)
                if answered {
                    #expect(again.errorCode == .challengeInvalid, "no challenge is usable twice")
                } else {
                    #expect(again.status == .ok || again.errorCode == .challengeInvalid)
                    #expect(try await after.call(.post, "/v1/sessions/biometric", json: request).errorCode == .challengeInvalid)
                }
            }
            _ = try await after.biometricSignIn(key, registrationID: registration.id)  // and the server works
            kill(second.process.processIdentifier, SIGTERM)
            #expect(try await second.waitForExit() == 0, "stderr: \(second.stderr)")
        }
    }
}
