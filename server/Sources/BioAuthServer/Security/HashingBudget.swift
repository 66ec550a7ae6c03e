import BioAuthProtocol
import Foundation
import Synchronization

/// The slow hashes (bcrypt, for passwords and PINs) the server runs at once, the ones it lets
/// wait, and each client's share of both, served in turn.
///
/// A hash takes a worker for a quarter of a second; without a bound, one client's unknown-user
/// sign-ins queue ahead of everyone's. So a request that costs a hash takes a slot first:
/// - ``workers`` slots run (one per core, NIO's thread pool has as many threads);
/// - the rest wait in their client's own queue, and a freed worker goes to the next client in turn
///   (round robin): a newcomer waits for at most one hash per client ahead of it, divided among
///   the workers, however many requests those clients have waiting;
/// - a client's first waiting request always gets its turn; up to ``queueLimit`` more, all clients
///   together, wait behind their clients' first; past that one is refused at once, 503
///   `unavailable` with `Retry-After`;
/// - one client (``ClientAddress/limitKey(_:)``) holds at most ``perClient`` slots, running or
///   waiting (unknown usernames count like any); one more is 429 `rate_limited` with `Retry-After`.
///
/// A slot is taken before the attempt is reserved under the lockout
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
    /// Hashes that may wait beyond each waiting client's first.
    let queueLimit: Int
    /// Slots one client may hold, running or waiting.
    let perClient: Int

    private struct State {
        var running = 0
        /// Slots each client holds, running or waiting.
        var byClient: [String: Int] = [:]
        /// Each client's waiting requests, oldest first.
        var waiting: [String: [CheckedContinuation<Void, any Error>]] = [:]
        /// The clients with a request waiting, in the order of their turns.
        var turns: [String] = []
        /// Waiting requests beyond each client's first, bounded by ``queueLimit``.
        var extra = 0
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
        let key = client ?? ""
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let admission = state.withLock { state -> Admission in
                if client != nil, state.byClient[key, default: 0] >= perClient { return .overShare }
                let admission: Admission
                if state.running < workers {
                    state.running += 1
                    admission = .run
                } else if state.waiting[key] == nil {
                    state.turns.append(key)  // its first waiting request: its turn comes
                    state.waiting[key] = [continuation]
                    admission = .wait
                } else if state.extra < queueLimit {
                    state.extra += 1
                    state.waiting[key]?.append(continuation)
                    admission = .wait
                } else {
                    return .full
                }
                state.byClient[key, default: 0] += 1
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
        let key = client ?? ""
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            let left = state.byClient[key, default: 1] - 1
            state.byClient[key] = left > 0 ? left : nil
            guard !state.turns.isEmpty else {
                state.running -= 1
                return nil
            }
            // Its worker passes on to the next client in turn, which goes to the back if it has more.
            let turn = state.turns.removeFirst()
            var queue = state.waiting[turn] ?? []
            let next = queue.removeFirst()
            if queue.isEmpty {
                state.waiting[turn] = nil
            } else {
                state.waiting[turn] = queue
                state.turns.append(turn)
                state.extra -= 1
            }
            return next
        }
        next?.resume()
    }
}
