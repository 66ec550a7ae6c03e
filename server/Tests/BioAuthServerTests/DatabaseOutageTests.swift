import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Synchronization
import Testing

/// The database fails under traffic and comes back: PostgreSQL restarts, SQLite's disk fills. The
/// server answers 503 `unavailable` at once while it cannot work, never 500 and never late; serves
/// again by itself; loses no answered sign-in; and spends each challenge at most once.
///
/// Run alone (`./scripts/test`): the PostgreSQL test restarts the suite's shared server, with the
/// commands `BIOAUTH_TEST_POSTGRES_STOP` and `BIOAUTH_TEST_POSTGRES_START` (scripts/lib/postgres.sh);
/// the SQLite test mounts a 16 MiB tmpfs in a mount namespace of the server's own (`unshare -rm`).
@Suite("Database outages", .serialized)
struct DatabaseOutageTests {
    /// The longest any answer may take: the server's `--database-wait` (1 s) and room to spare.
    static let longestAnswer: Duration = .seconds(3)

    static var postgresRestart: (stop: String, start: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let stop = environment["BIOAUTH_TEST_POSTGRES_STOP"], let start = environment["BIOAUTH_TEST_POSTGRES_START"],
            !stop.isEmpty, !start.isEmpty
        else { return nil }
        return (stop, start)
    }

    @Test(
        "PostgreSQL restarting under sign-ins and registrations: 503 unavailable while it is down, back by itself, nothing answered lost",
        .enabled(
            if: TestDatabase.current == .postgres && postgresRestart != nil,
            "PostgreSQL only, with BIOAUTH_TEST_POSTGRES_STOP and _START (./scripts/test sets them)"
        )
    )
    func postgresRestarts() async throws {
        let restart = try #require(Self.postgresRestart)
        try await TestDatabase.current.withFreshDatabase { database in
            let server = try ServeCommandTests.launch(Self.serveArguments(database))
            defer { if server.process.isRunning { server.process.terminate() } }
            let traffic = try await OutageTraffic(port: try await server.waitForPort())
            try await traffic.run {
                try await Task.sleep(for: .milliseconds(800))
                try ShellCommand.run(restart.stop)  // a fast shutdown: every connection is cut
                await traffic.waitForRefusals()
                try await Task.sleep(for: .seconds(4))  // longer than the longest answer: no request may wait it out
                try ShellCommand.run(restart.start)
            }
            try await traffic.check(transactionsWhole: false)
            #expect(server.stderr.contains("database unavailable"), "stderr: \(server.stderr)")
            #expect(server.stderr.contains("database available again"), "stderr: \(server.stderr)")
            #expect(!server.stderr.contains("unhandled error"), "stderr: \(server.stderr)")
        }
    }

    @Test(
        "SQLite's disk filling under sign-ins and registrations: 503 unavailable while it is full, nothing half-written, back when space returns",
        .enabled(if: TestDatabase.current == .sqlite && SmallDisk.canMount, "SQLite only, where unshare -rm may mount a tmpfs")
    )
    func sqliteDiskFills() async throws {
        let disk = try SmallDisk()
        defer { disk.remove() }
        let server = try ServeCommandTests.launch(
            Self.serveArguments(disk.folder.appendingPathComponent("bioauth.sqlite").path),
            launcher: disk.launcher
        )
        defer { if server.process.isRunning { server.process.terminate() } }
        let traffic = try await OutageTraffic(port: try await server.waitForPort())
        let filler = disk.path(seenBy: server.process.processIdentifier, "filler")
        try await traffic.run {
            try await Task.sleep(for: .milliseconds(800))
            try SmallDisk.fill(filler)
            await traffic.waitForRefusals()
            try await Task.sleep(for: .seconds(1))
            try FileManager.default.removeItem(atPath: filler)
        }
        // SQLite rolls a failed transaction back whole: a completion answered 503 spent nothing.
        try await traffic.check(transactionsWhole: true)
        #expect(server.stderr.contains("database unavailable"), "stderr: \(server.stderr)")
        #expect(!server.stderr.contains("unhandled error"), "stderr: \(server.stderr)")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.waitForExit() == 0, "stderr: \(server.stderr)")
    }

    static func serveArguments(_ database: String) -> [String] {
        [
            "serve", "--port", "0", "--database", database, "--relying-party", LoopbackServer.relyingPartyID, "--database-wait", "1",
            "--requests-per-minute", "1000000", "--challenges-per-minute", "10000", "--max-registrations", "1000",
            "--max-pending-registrations", "1000", "--log-level", "warning",
        ]
    }
}

/// A 16 MiB tmpfs that only a launched server sees: `unshare -rm` gives the server a mount
/// namespace of its own (no privilege needed where user namespaces are allowed), mounts the
/// tmpfs over a new folder there, and execs the server; the test reaches the folder through
/// `/proc/<pid>/root`.
struct SmallDisk {
    let folder: URL

    /// Whether this machine lets an unprivileged mount namespace mount a tmpfs.
    static let canMount: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Put before the server's command line: mounts the tmpfs, then execs the server.
    var launcher: [String] {
        ["/usr/bin/unshare", "-rm", "sh", "-c", #"mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@""#, folder.path]
    }

    /// `name` in the tmpfs, as the test process reaches it.
    func path(seenBy pid: Int32, _ name: String) -> String {
        "/proc/\(pid)/root\(folder.path)/\(name)"
    }

    /// Writes `path` until the disk is full.
    static func fill(_ path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let chunk = Data(repeating: 0xA5, count: 16_384)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Sign-ins and registrations from several clients at once around a fault, and what each answer
/// promised.
final class OutageTraffic: Sendable {
    private struct Completion {
        var request: BiometricSignInRequest
        var status: Int?  // nil: no answer
    }

    private struct Ledger {
        var sessionTokens: [String] = []
        var startedRegistrations: [String] = []
        var completions: [Completion] = []
        var refusals = 0
        var successesAfterFault = 0
        var faultOver = false
        var slowest: Duration = .zero
        var unexpected: [String] = []
    }

    private let client: ParallelClient
    private let account: SignInResponse
    private let key: SoftwareDeviceKey
    private let registration: Registration
    private let ledger = Mutex(Ledger())
    private let stopped = Atomic<Bool>(false)

    init(port: Int) async throws {
        client = ParallelClient(port: port)
        (account, key, registration) = try await client.newAccountWithKey()
    }

    /// Runs the traffic, then `fault`, then on until five requests have succeeded after it (at
    /// most 15 seconds).
    func run(fault: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { await self.signInLoop() } }
            for _ in 0..<2 { group.addTask { await self.registrationLoop() } }
            group.addTask {
                defer { self.stopped.store(true, ordering: .relaxed) }
                try await fault()
                self.ledger.withLock { $0.faultOver = true }
                let deadline = ContinuousClock.now + .seconds(15)
                while ContinuousClock.now < deadline, self.ledger.withLock({ $0.successesAfterFault }) < 5 {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            try await group.waitForAll()
        }
    }

    /// Returns once the server has refused a request 503, or after 10 seconds.
    func waitForRefusals() async {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, ledger.withLock({ $0.refusals }) == 0 {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func signInLoop() async {
        while !stopped.load(ordering: .relaxed) {
            guard let challengeAnswer = await call(.post, "/v1/biometric/challenges", json: CreateChallengeRequest(registrationID: registration.id)),
                challengeAnswer.status == .created || challengeAnswer.status == .ok,
                let challenge = try? challengeAnswer.decode(ChallengeResponse.self)
            else { continue }
            let request = BiometricSignInRequest(
                challengeID: challenge.challengeID,
                signature: key.sign(
                    .authentication,
                    rpID: LoopbackServer.relyingPartyID,
                    registrationID: registration.id,
                    challenge: challenge.challenge.data
                )
            )
            let answer = await call(.post, "/v1/sessions/biometric", json: request)
            ledger.withLock { $0.completions.append(Completion(request: request, status: answer.map { Int($0.status.code) })) }
            if let answer, answer.status == .ok, let signIn = try? answer.decode(SignInResponse.self) {
                ledger.withLock { $0.sessionTokens.append(signIn.sessionToken) }
            }
        }
    }

    private func registrationLoop() async {
        while !stopped.load(ordering: .relaxed) {
            let newKey = SoftwareDeviceKey.ed25519()
            guard
                let start = await call(
                    .post,
                    "/v1/biometric/registrations",
                    json: StartRegistrationRequest(
                        algorithm: newKey.algorithm,
                        publicKey: newKey.publicKey(),
                        label: "phone"
                    ),
                    token: account.sessionToken
                ),
                start.status == .created, let started = try? start.decode(RegistrationStartResponse.self)
            else { continue }
            ledger.withLock { $0.startedRegistrations.append(started.registrationID) }
            let signature = newKey.sign(
                .registration,
                rpID: LoopbackServer.relyingPartyID,
                registrationID: started.registrationID,
                challenge: started.challenge.data
            )
            _ = await call(
                .post,
                "/v1/biometric/registrations/\(started.registrationID)/verify",
                json: VerifyRegistrationRequest(signature: signature),
                token: account.sessionToken
            )
        }
    }

    /// One request, timed and sorted: a success, a 503 `unavailable` with `Retry-After`, or
    /// something no fault excuses (kept for ``check(transactionsWhole:)``).
    private func call(_ method: HTTPRequest.Method, _ path: String, json: any Encodable & Sendable, token: String? = nil) async -> APIResponse? {
        let started = ContinuousClock.now
        let answer: APIResponse
        do {
            answer = try await client.call(method, path, json: json, token: token)
        } catch {
            ledger.withLock { $0.unexpected.append("\(method) \(path): no answer (\(error))") }
            return nil
        }
        let took = ContinuousClock.now - started
        ledger.withLock { ledger in
            ledger.slowest = max(ledger.slowest, took)
            if (200..<300).contains(answer.status.code) {
                if ledger.faultOver { ledger.successesAfterFault += 1 }
            } else if answer.errorCode == .unavailable, answer.headers[.retryAfter] != nil {
                ledger.refusals += 1
            } else {
                ledger.unexpected.append("\(method) \(path): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
        }
        return answer
    }

    /// What must hold once the fault is over.
    ///
    /// - Parameter transactionsWhole: Whether every 503 means nothing was written (SQLite). On
    ///   PostgreSQL a connection may die after COMMIT reached it, so a 503'd sign-in may have
    ///   happened; its challenge is then spent.
    func check(transactionsWhole: Bool) async throws {
        let seen = ledger.withLock { $0 }
        #expect(seen.unexpected.isEmpty, "answers no fault excuses: \(seen.unexpected.prefix(5))")
        #expect(seen.refusals > 0, "the fault was felt: some requests were refused 503")
        #expect(seen.successesAfterFault >= 5, "the server serves again by itself once the database is back")
        #expect(
            seen.slowest <= DatabaseOutageTests.longestAnswer,
            "every answer came within \(DatabaseOutageTests.longestAnswer): the slowest took \(seen.slowest)"
        )
        #expect(seen.sessionTokens.count > 5, "sign-ins ran")

        for token in seen.sessionTokens {
            #expect(try await client.call(.get, "/v1/sessions/current", token: token).status == .ok, "an answered sign-in's session exists")
        }
        let listed = try await client.registrationList(token: account.sessionToken)
        let ids = Set(listed.registrations.map(\.id))
        for id in seen.startedRegistrations {
            #expect(ids.contains(id), "an answered registration exists")
        }
        for completion in seen.completions {
            let again = try await client.call(.post, "/v1/sessions/biometric", json: completion.request)
            switch completion.status {
            case 200:
                #expect(again.errorCode == .challengeInvalid, "an answered sign-in's challenge is spent")
            case 503 where transactionsWhole:
                #expect(again.status == .ok, "a sign-in refused 503 spent nothing: its challenge is still good, once")
            default:
                #expect(again.status == .ok || again.errorCode == .challengeInvalid)
            }
            #expect(
                try await client.call(.post, "/v1/sessions/biometric", json: completion.request).errorCode == .challengeInvalid,
                "no challenge is usable twice"
            )
        }
    }
}
