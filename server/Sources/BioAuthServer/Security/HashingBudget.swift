import BioAuthProtocol
import Foundation
import Synchronization

/// The slow hashes (bcrypt, for passwords and PINs) the server runs at once, the ones it lets
/// wait, and each client address's share of both.
///
/// A hash takes a worker for a quarter of a second; without a bound, one address's unknown-user
/// sign-ins queue ahead of everyone's. So a request that costs a hash takes a slot first:
/// - ``workers`` slots run (one per core, NIO's thread pool has as many threads);
/// - up to ``queueLimit`` more wait, first come first served; past that the request is refused at
///   once, 503 `unavailable` with `Retry-After`;
/// - one client address holds at most ``perClient`` slots, running or waiting (unknown usernames
///   count like any); one more is 429 `rate_limited` with `Retry-After`.
///
/// With every worker busy with one address's hashes, another address's hash waits for at most
/// one hash to finish, then runs. A slot is taken before the attempt is reserved under the lockout
/// (``AccountCore/reserve(_:usernameKey:subject:event:registrationID:spending:)``), so a refused
/// request counts as no guess.
final class HashingBudget: Sendable {
    /// The client the current request comes from (its rate-limit key), set by
    /// ``RequestLimitsMiddleware``; `nil` outside a request (an operator's `bioauth admin`).
    @TaskLocal static var client: String?
    /// Whether the current task already holds a slot (a password or PIN check reserves its attempt
    /// and hashes in one slot; a PIN under a retired key is also hashed again in it).
    @TaskLocal private static var holding = false

    /// Hashes run at once.
    let workers: Int
    /// Hashes that may wait for a worker.
    let queueLimit: Int
    /// Slots one client address may hold, running or waiting.
    let perClient: Int

    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, any Error>] = []
        var byClient: [String: Int] = [:]
    }

    private let state = Mutex(State())

    init(workers: Int, queueLimit: Int, perClient: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.perClient = max(1, perClient)
    }

    /// Runs `body`, which costs one or more hashes, in a slot; refuses at once when there is none
    /// to wait for.
    func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if Self.holding { return try await body() }
        let client = Self.client
        try await acquire(client)
        defer { release(client) }
        return try await Self.$holding.withValue(true) { try await body() }
    }

    private enum Admission {
        case run, wait, overShare, full
    }

    private func acquire(_ client: String?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let admission = state.withLock { state -> Admission in
                if let client, state.byClient[client, default: 0] >= perClient { return .overShare }
                let admission: Admission
                if state.running < workers {
                    state.running += 1
                    admission = .run
                } else if state.waiting.count < queueLimit {
                    state.waiting.append(continuation)
                    admission = .wait
                } else {
                    return .full
                }
                if let client { state.byClient[client, default: 0] += 1 }
                return admission
            }
            switch admission {
            case .run: continuation.resume()
            case .wait: break  // resumed by a release
            case .overShare:
                continuation.resume(
                    throwing: Rejection(
                        .rateLimited,
                        "This address has \(perClient) password or PIN checks under way; wait for one to finish.",
                        retryAfterSeconds: 1
                    )
                )
            case .full:
                continuation.resume(
                    throwing: Rejection(
                        .unavailable,
                        "The server is checking as many passwords and PINs as it can; try again shortly.",
                        retryAfterSeconds: 1
                    )
                )
            }
        }
    }

    private func release(_ client: String?) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if let client {
                let left = state.byClient[client, default: 1] - 1
                state.byClient[client] = left > 0 ? left : nil
            }
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()  // its worker passes on
        }
        next?.resume()
    }
}
