import BioAuthProtocol
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import BioAuthServer

/// Password and PIN checks (bcrypt) under a bound: one client cannot take the cores, clients are
/// served in turn, and past the queue a request is refused at once.
@Suite("Hashing budget", .serialized)
struct HashingBudgetTests {
    private static let forwarded = HTTPField.Name("X-Forwarded-For")!

    /// Seconds since `start`.
    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test(
        "one address flooding unknown-user password sign-ins within its request budget: another address's sign-in finishes within three hash times, or is refused at once with Retry-After; the flood's extra requests are 429 at once"
    )
    func floodFromOneAddress() async throws {
        try await TestServer.run(configure: {
            $0.passwordHashCost = 10
            $0.trustForwardedFor = true
        }) { server in
            let client = try ParallelClient(server)
            _ = try await server.api.signUp("victim", password: "correct horse battery")
            let honest: HTTPFields = [Self.forwarded: "192.0.2.7"]
            let honestSignIn = {
                try await client.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: "victim", password: "correct horse battery"),
                    headers: honest
                )
            }
            // The hash time on this machine now: the honest sign-in alone.
            var alone: [Double] = []
            for _ in 0..<3 {
                let start = ContinuousClock.now
                let answer = try await honestSignIn()
                #expect(answer.status == .ok)
                alone.append(Self.seconds(since: start))
            }
            let hashTime = alone.sorted()[1]
            let flooding = ManagedAtomicFlag()
            let outcomes = try await withThrowingTaskGroup(of: [Int].self) { group in
                // 16 connections from one address sending unknown-user sign-ins, 10 a second together:
                // the default 600 a minute, and enough to keep every core hashing.
                for worker in 0..<16 {
                    group.addTask {
                        var statuses: [Int] = []
                        var round = 0
                        while !flooding.isSet {
                            let answer = try await client.call(
                                .post,
                                "/v1/sessions/password",
                                json: PasswordSignInRequest(username: "nobody-\(worker)-\(round)", password: "guess \(round)!"),
                                headers: [Self.forwarded: "198.51.100.66"]
                            )
                            statuses.append(answer.status.code)
                            round += 1
                            try await Task.sleep(for: .milliseconds(1_600))
                        }
                        return statuses
                    }
                }
                try await Task.sleep(for: .seconds(Swift.max(1, hashTime * 5)))
                var problems: [String] = []
                for attempt in 0..<5 {
                    let start = ContinuousClock.now
                    let answer = try await honestSignIn()
                    let took = Self.seconds(since: start)
                    switch answer.status {
                    case .ok where took <= 3 * hashTime: break
                    case .serviceUnavailable where took <= hashTime && answer.headers[.retryAfter] != nil: break
                    case .tooManyRequests where took <= hashTime && answer.headers[.retryAfter] != nil: break
                    default: problems.append("attempt \(attempt): \(answer.status.code) after \(took) s (one hash: \(hashTime) s)")
                    }
                }
                flooding.set()
                var statuses: [Int] = []
                for try await worker in group { statuses += worker }
                #expect(problems.isEmpty, "\(problems)")
                return statuses
            }
            // The flood's address had its two slots; everything past them was refused, never queued.
            #expect(outcomes.contains(401) && outcomes.contains(429), "\(Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count))")
            #expect(Set(outcomes).isSubset(of: [401, 429]), "\(Set(outcomes))")
        }
    }

    @Test(
        "ten addresses flooding password sign-ins, each within its share: a new address signs in, never 503, within (10 ÷ workers + 2) hash times measured under the flood"
    )
    func newcomerServedInTurn() async throws {
        try await TestServer.run(configure: {
            $0.passwordHashCost = 11
            $0.trustForwardedFor = true
            $0.requestsPerMinutePerAddress = 1_000_000
        }) { server in
            let client = try ParallelClient(server)
            _ = try await server.api.signUp("newcomer", password: "correct horse battery")
            let signIn: @Sendable (String, String, String) async throws -> APIResponse = { address, username, password in
                try await client.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: username, password: password),
                    headers: [Self.forwarded: address]
                )
            }
            let flooders = 10
            let workers = ProcessInfo.processInfo.activeProcessorCount
            let flooding = ManagedAtomicFlag()
            let served = AtomicCounter()
            let outcomes = try await withThrowingTaskGroup(of: [Int].self) { group in
                // Each flooding address keeps its share (two checks) under way, sending again as each is answered.
                for flooder in 0..<flooders {
                    for lane in 0..<2 {
                        group.addTask {
                            var statuses: [Int] = []
                            var round = 0
                            while !flooding.isSet {
                                let answer = try await signIn("198.51.100.\(flooder + 1)", "nobody-\(flooder)-\(lane)-\(round)", "guess \(round)!")
                                statuses.append(answer.status.code)
                                round += 1
                                if answer.status == .unauthorized { served.add() } else { try await Task.sleep(for: .milliseconds(20)) }
                            }
                            return statuses
                        }
                    }
                }
                try await Task.sleep(for: .seconds(2))
                // The hash time is measured under the flood, over each attempt: the workers' time
                // over the hashes they finished meanwhile (the flood's and the newcomer's own). So
                // "within (flooders ÷ workers + 2) hash times" is "the flood got at most one hash
                // per flooding client, and the workers' hashes under way, before the newcomer's":
                // a count, whatever else loads the machine. (First come first served, the newcomer
                // would wait behind both of every flooder's checks.)
                var attempts: [(status: Int, seconds: Double, floodHashes: Int)] = []
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    let before = served.value
                    let answer = try await signIn("192.0.2.7", "newcomer", "correct horse battery")
                    attempts.append((answer.status.code, Self.seconds(since: start), served.value - before))
                }
                flooding.set()
                var statuses: [Int] = []
                for try await lane in group { statuses += lane }
                // One more hash per worker: answers of hashes finished just before an attempt began may arrive during it.
                let bound = flooders + 3 * workers
                #expect(
                    attempts.allSatisfy { $0.status == 200 && $0.floodHashes <= bound },
                    "newcomer: \(attempts.map { "\($0.status) after \($0.seconds) s, \($0.floodHashes) flood hashes meanwhile" }); bound \(bound)"
                )
                return statuses
            }
            // The flood was served too (its unknown usernames answered 401) and never over its share.
            #expect(outcomes.contains(401) && !outcomes.contains(429), "\(Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count))")
        }
    }

    @Test(
        "past the queue a password check is refused at once: 503 unavailable with Retry-After, and it counts as no guess"
    )
    func queueFull() async throws {
        let workers = ProcessInfo.processInfo.activeProcessorCount
        try await TestServer.run(configure: {
            // The refused guess would be the one that locks.
            $0.lockoutThreshold = workers + 3
            $0.passwordHashCost = 12
            $0.trustForwardedFor = true
            $0.hashQueue = 1
            $0.hashesPerAddress = 100
            $0.requestsPerMinutePerAddress = 100_000
        }) { server in
            let client = try ParallelClient(server)
            _ = try await server.api.signUp("victim", password: "correct horse battery")
            // Slow checks from one address fill every worker, its first waiting place and the one
            // place beyond it in the queue; the rest are refused.
            let statuses = try await withThrowingTaskGroup(of: (Int, Double, Bool).self) { group in
                for index in 0..<(workers + 3) {
                    group.addTask {
                        let start = ContinuousClock.now
                        let answer = try await client.call(
                            .post,
                            "/v1/sessions/password",
                            json: PasswordSignInRequest(username: "victim", password: "wrong guess \(index)"),
                            headers: [Self.forwarded: "203.0.113.1"]
                        )
                        return (
                            answer.status.code, Self.seconds(since: start), answer.headers[.retryAfter] != nil && answer.errorCode == .unavailable
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = statuses.filter { $0.0 == 503 }
            #expect(refused.count >= 1, "\(statuses)")
            #expect(refused.allSatisfy { $0.2 && $0.1 < 0.5 }, "\(refused)")
            #expect(statuses.allSatisfy { $0.0 == 401 || $0.0 == 503 }, "\(statuses)")
            // Only the checked guesses counted toward the lockout: the right password still signs in.
            #expect(
                try await client.call(
                    .post,
                    "/v1/sessions/password",
                    json: PasswordSignInRequest(username: "victim", password: "correct horse battery"),
                    headers: [Self.forwarded: "203.0.113.200"]
                ).status == .ok
            )
        }
    }
}

/// A count tasks add to and others read.
final class AtomicCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// A flag one task sets and others read.
final class ManagedAtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
