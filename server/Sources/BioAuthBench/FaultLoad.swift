import BioAuthProtocol
import BioAuthTesting
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// `bioauth-dev bench --faults`: a mixed load (biometric sign-ins, password sign-ins, registrations)
/// against a server on one database while a command breaks the database and another heals it, in
/// turns; then every answered sign-in's session is looked up and every answered biometric sign-in
/// is sent again. Counts what was answered, refused (503, 429), failed (a 500, an answer no fault
/// excuses, no answer), lost (an answered session that is gone) and reused (a spent challenge that
/// worked again). Failed, lost and reused must be 0.
package final class FaultLoad: Sendable {
    /// What to run.
    package struct Options: Sendable {
        /// The server's `--database`: a SQLite file or a `postgres://` URL.
        package var database: String
        /// Breaks the database (stops PostgreSQL, fills the disk); run with `sh -c`.
        package var breakCommand: String
        /// Heals it (starts PostgreSQL, frees the disk); run with `sh -c`.
        package var healCommand: String
        /// The whole load; the last fault is healed at least 10 seconds before its end.
        package var duration: Duration = .seconds(180)
        /// Time from one fault to the next.
        package var every: Duration = .seconds(30)
        /// How long each fault lasts.
        package var outage: Duration = .seconds(8)
        /// Connections, each a device of its own account.
        package var connections: Int = 16
        /// bcrypt cost of the server.
        package var passwordCost: Int = 10

        package init(database: String, breakCommand: String, healCommand: String) {
            self.database = database
            self.breakCommand = breakCommand
            self.healCommand = healCommand
        }
    }

    /// What the load saw.
    package struct Report: Sendable, CustomStringConvertible {
        package var database = ""
        package var seconds = 0.0
        package var faults = 0
        package var answered = 0
        package var refused: [String: Int] = [:]
        package var failed: [String] = []
        package var lost = 0
        package var reused = 0
        package var slowestRefusal: Duration = .zero
        /// From each heal to the first success after it.
        package var recoveries: [Duration] = []

        /// Whether nothing failed, was lost or was reused.
        package var isClean: Bool { failed.isEmpty && lost == 0 && reused == 0 }

        package var description: String {
            let refusals = refused.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            let recovery = recoveries.max().map { String(format: "%.2f s", $0.timeInterval) } ?? "-"
            return """
                fault load on \(database): \(String(format: "%.0f", seconds)) s, \(faults) faults
                  answered  \(answered)
                  refused   \(refused.values.reduce(0, +))\(refusals.isEmpty ? "" : " (\(refusals))")
                  failed    \(failed.count)\(failed.isEmpty ? "" : ": \(failed.prefix(3).joined(separator: "; "))")
                  lost      \(lost) (answered sign-ins whose session is gone)
                  reused    \(reused) (answered sign-ins whose challenge worked again)
                  slowest refusal \(String(format: "%.2f s", slowestRefusal.timeInterval)); first success after a heal within \(recovery)

                """
        }
    }

    private struct Ledger {
        var report = Report()
        var sessions: [String] = []
        var completions: [BiometricSignInRequest] = []  // answered 200
        var healedAt: ContinuousClock.Instant?
    }

    let options: Options
    private let relyingParty = "localhost"
    private let ledger = Mutex(Ledger())
    private let stopped = Atomic<Bool>(false)

    package init(options: Options) {
        self.options = options
    }

    /// Runs the load with its faults and the checks after it.
    package func run() async throws -> Report {
        let server = try await ServerProcess.start(
            database: options.database,
            arguments: [
                "--requests-per-minute", "1000000", "--challenges-per-minute", "10000", "--max-connections-per-address", "10000",
                "--hashes-per-address", "64", "--max-registrations", "1000", "--max-pending-registrations", "1000",
                "--password-cost", String(options.passwordCost), "--database-wait", "1", "--relying-party", relyingParty,
            ]
        )
        do {
            let report = try await load(server)
            await server.stop()
            return report
        } catch {
            await server.stop()
            throw error
        }
    }

    private func load(_ server: ServerProcess) async throws -> Report {
        let options = self.options
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + options.duration
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in try await enroll(server) {
                group.addTask { try await self.load(client, server: server) }
            }
            group.addTask {
                defer { self.stopped.store(true, ordering: .relaxed) }
                var next = start + options.every
                while next + options.outage + .seconds(10) <= end {
                    try await Task.sleep(until: next, clock: clock)
                    try ShellCommand.run(options.breakCommand)
                    try await Task.sleep(for: options.outage)
                    try ShellCommand.run(options.healCommand)
                    self.ledger.withLock {
                        $0.report.faults += 1
                        $0.healedAt = clock.now
                    }
                    next = next + options.every
                }
                try await Task.sleep(until: end, clock: clock)
            }
            try await group.waitForAll()
        }
        var report = try await check(server)
        report.database = options.database.hasPrefix("postgres") ? "postgres" : "sqlite"
        report.seconds = (clock.now - start).timeInterval
        return report
    }

    /// One connection's account, its device and its session.
    private struct Client {
        var account: PasswordSignInRequest
        var device: BenchDevice
        var token: String
    }

    /// A new account with a device for each connection, one after another (sign-up hashes a
    /// password; the server refuses more hashes at once than it has cores to queue for).
    private func enroll(_ server: ServerProcess) async throws -> [Client] {
        let tag = UUID().uuidString.prefix(8).lowercased()
        return try await HTTPConnection.with(host: server.host, port: server.port) { http in
            let phone = PhoneConnection(http: http, relyingPartyID: relyingParty)
            var clients: [Client] = []
            for index in 0..<options.connections {
                let account = PasswordSignInRequest(username: "fault-\(tag)-\(index)", password: "fault load password \(index) \(tag)")
                try await phone.signUp(account.username, password: account.password)
                let signedIn = try await phone.signIn(account.username, password: account.password)
                clients.append(
                    Client(account: account, device: try await BenchDevice.register(over: phone, signedIn: signedIn), token: signedIn.sessionToken)
                )
            }
            return clients
        }
    }

    /// One connection's loop: mostly biometric sign-ins, every tenth a password sign-in, every
    /// fiftieth a registration (an account holds at most 1,000). A broken connection is opened again.
    private func load(_ client: Client, server: ServerProcess) async throws {
        let (account, device, token) = (client.account, client.device, client.token)
        var iteration = 0
        while !stopped.load(ordering: .relaxed) {
            do {
                try await HTTPConnection.with(host: server.host, port: server.port) { http in
                    while !stopped.load(ordering: .relaxed) {
                        iteration += 1
                        if iteration % 50 == 0 {
                            try await register(over: http, token: token)
                        } else if iteration % 10 == 0 {
                            try await passwordSignIn(account, over: http)
                        } else {
                            try await biometricSignIn(device, over: http)
                        }
                    }
                }
            } catch {
                ledger.withLock { $0.report.failed.append("no answer: \(error)") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func biometricSignIn(_ device: BenchDevice, over http: HTTPConnection) async throws {
        guard
            let challenge = try await call(
                http,
                .createChallenge,
                CreateChallengeRequest(registrationID: device.registrationID),
                as: ChallengeResponse.self
            )
        else { return }
        let request = BiometricSignInRequest(
            challengeID: challenge.challengeID,
            signature: device.key.sign(
                .authentication,
                rpID: relyingParty,
                registrationID: device.registrationID,
                challenge: challenge.challenge.data
            )
        )
        guard let signIn = try await call(http, .signInWithBiometric, request, as: SignInResponse.self) else { return }
        ledger.withLock {
            $0.sessions.append(signIn.sessionToken)
            $0.completions.append(request)
        }
    }

    private func passwordSignIn(_ account: PasswordSignInRequest, over http: HTTPConnection) async throws {
        guard let signIn = try await call(http, .signInWithPassword, account, as: SignInResponse.self) else { return }
        ledger.withLock { $0.sessions.append(signIn.sessionToken) }
    }

    private func register(over http: HTTPConnection, token: String) async throws {
        let key = SoftwareDeviceKey.es256()
        guard
            let started = try await call(
                http,
                .startRegistration,
                StartRegistrationRequest(algorithm: key.algorithm, publicKey: key.publicKey(), label: "fault"),
                as: RegistrationStartResponse.self,
                bearer: token
            )
        else { return }
        let signature = key.sign(.registration, rpID: relyingParty, registrationID: started.registrationID, challenge: started.challenge.data)
        _ = try await call(
            http,
            .verifyRegistration,
            id: started.registrationID,
            VerifyRegistrationRequest(signature: signature),
            as: RegistrationResponse.self,
            bearer: token
        )
    }

    /// One request: a 2xx answer decoded; a refusal (503 `unavailable`, 429) counted and nil,
    /// after a pause as a client's back-off; anything else counted as failed and nil.
    private func call<Answer: Decodable>(
        _ http: HTTPConnection,
        _ endpoint: Endpoint,
        id: String? = nil,
        _ body: some Encodable,
        as _: Answer.Type,
        bearer: String? = nil
    ) async throws -> Answer? {
        let started = ContinuousClock.now
        let reply = try await http.send(
            HTTPMethod(rawValue: endpoint.method.rawValue),
            endpoint.path(id),
            body: ByteBuffer(data: try WireJSON.makeEncoder().encode(body)),
            bearer: bearer
        )
        let took = ContinuousClock.now - started
        if (200..<300).contains(reply.status) {
            ledger.withLock { ledger in
                ledger.report.answered += 1
                if let healed = ledger.healedAt {
                    ledger.report.recoveries.append(ContinuousClock.now - healed)
                    ledger.healedAt = nil
                }
            }
            return try WireJSON.makeDecoder().decode(Answer.self, from: Data(reply.body.readableBytesView))
        }
        let code = (try? WireJSON.makeDecoder().decode(ErrorResponse.self, from: Data(reply.body.readableBytesView)))?.error.code
        ledger.withLock { ledger in
            switch (reply.status, code) {
            case (503, .unavailable?), (429, .rateLimited?):
                ledger.report.refused["\(reply.status) \(code!.rawValue)", default: 0] += 1
                if reply.status == 503 { ledger.report.slowestRefusal = max(ledger.report.slowestRefusal, took) }
            default:
                ledger.report.failed.append(
                    "\(endpoint.method.rawValue) \(endpoint.path(id)) answered \(reply.status) \(String(buffer: reply.body).prefix(200))"
                )
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        return nil
    }

    /// After the load: every answered session is still there, no answered challenge works again.
    private func check(_ server: ServerProcess) async throws -> Report {
        let (sessions, completions) = ledger.withLock { ($0.sessions, $0.completions) }
        let workers = options.connections
        let (lost, reused) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    try await HTTPConnection.with(host: server.host, port: server.port) { http in
                        var (lost, reused) = (0, 0)
                        for token in stride(from: worker, to: sessions.count, by: workers).map({ sessions[$0] }) {
                            let reply = try await http.send(.GET, Endpoint.getCurrentSession.path(nil), bearer: token)
                            if reply.status != 200 { lost += 1 }
                        }
                        for request in stride(from: worker, to: completions.count, by: workers).map({ completions[$0] }) {
                            let reply = try await http.send(
                                .POST,
                                Endpoint.signInWithBiometric.path(nil),
                                body: ByteBuffer(data: try WireJSON.makeEncoder().encode(request))
                            )
                            if reply.status != 401 { reused += 1 }
                        }
                        return (lost, reused)
                    }
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        return ledger.withLock { ledger in
            ledger.report.lost = lost
            ledger.report.reused = reused
            return ledger.report
        }
    }
}
