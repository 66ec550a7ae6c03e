import PostgresNIO
import Synchronization

/// One call's wait for a pooled PostgreSQL connection and its work on it, answered once.
///
/// Whichever comes first wins: the connection (the work runs) or the end of the wait (the caller
/// gets ``DatabaseUnavailable`` and a connection that arrives later goes straight back). Once the
/// work runs, it is waited for unless its connection closes under it: PostgresNIO drops a
/// statement written to a connection as it closes and never answers it, so work still running
/// half a second after its connection was seen closed is given up (the work's task is left to its
/// fate). The provider's ``LeaseWatch`` checks both, on its rounds.
final class LeaseRace: WatchedLease {
    private enum Stage {
        case waiting(until: ContinuousClock.Instant)
        case lent(PostgresConnection, closedSeen: ContinuousClock.Instant?)
        case gaveUp
    }
    private struct State {
        var stage: Stage
        var continuation: CheckedContinuation<Void, any Error>?
        var leasing: Task<Void, Never>?
        var answered = false
    }
    /// What a round of the watch found.
    private enum Verdict {
        case open
        case over
        case giveUp(Task<Void, Never>?)
        case abandon
    }
    private let state: Mutex<State>
    private let wait: Duration

    private init(wait: Duration) {
        self.wait = wait
        state = Mutex(State(stage: .waiting(until: .now + wait)))
    }

    /// Runs `work` on a connection `lease` lends, answering within `wait` (give or take a round of
    /// `watch`) if none comes. An error `classify` names an outage (told whether a connection had
    /// been lent) is thrown as ``DatabaseUnavailable``; any other as it is.
    ///
    /// The race itself is not generic: the Swift runtime looks a generic class's metadata up at
    /// each use in unspecialized code, which every call through ``DatabaseProvider`` is.
    static func run<T: Sendable>(
        waitingAtMost wait: Duration,
        watchedBy watch: LeaseWatch,
        lease: @escaping @Sendable ((PostgresConnection) async throws -> Void) async throws -> Void,
        classify: (any Error, _ leased: Bool) -> DatabaseUnavailable?,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let race = LeaseRace(wait: wait)
        let value = Outcome<T>()
        do {
            try await race.run(watch, lease) { connection in value.set(try await work(connection)) }
            return try value.get()
        } catch {
            throw classify(error, race.wasLent) ?? error
        }
    }

    private func run(
        _ watch: LeaseWatch,
        _ lease: @escaping @Sendable ((PostgresConnection) async throws -> Void) async throws -> Void,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) async throws {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.continuation = continuation }
            let leasing = Task {
                do {
                    try await lease { connection in
                        guard self.lend(connection) else { throw CancellationError() }  // the wait ran out first
                        try await work(connection)
                    }
                    self.answer(.success(()))
                } catch {
                    self.answer(.failure(error))
                }
            }
            state.withLock { $0.leasing = leasing }
            watch.add(self)
        }
    }

    func check(at now: ContinuousClock.Instant) -> Bool {
        let verdict = state.withLock { state -> Verdict in
            guard !state.answered else { return .over }
            switch state.stage {
            case .waiting(let deadline):
                guard now >= deadline else { return .open }
                state.stage = .gaveUp
                return .giveUp(state.leasing)
            case .lent(let connection, let closedSeen):
                guard connection.isClosed else { return .open }
                guard let closedSeen else {
                    state.stage = .lent(connection, closedSeen: now)
                    return .open
                }
                return now - closedSeen >= .milliseconds(500) ? .abandon : .open  // time for the work's own error
            case .gaveUp:
                return .over
            }
        }
        switch verdict {
        case .open:
            return false
        case .over:
            return true
        case .giveUp(let leasing):
            leasing?.cancel()
            answer(.failure(DatabaseUnavailable(reason: "no connection within \(wait)")))
            return true
        case .abandon:
            answer(.failure(DatabaseUnavailable(reason: "the connection closed under a statement")))
            return true
        }
    }

    private func lend(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard case .waiting = state.stage else { return false }
            state.stage = .lent(connection, closedSeen: nil)
            return true
        }
    }

    private var wasLent: Bool {
        state.withLock { state in
            if case .lent = state.stage { return true }
            return false
        }
    }

    private func answer(_ outcome: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.answered else { return nil }
            state.answered = true
            state.leasing = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}

/// The value a race's work returned, handed from the work's task to the caller (who reads it
/// only after the race answered: the continuation orders the two).
private final class Outcome<T: Sendable>: @unchecked Sendable {
    private var value: T?

    func set(_ value: T) { self.value = value }

    func get() throws -> T {
        guard let value else { throw DatabaseUnavailable(reason: "the connection closed under a statement") }
        return value
    }
}
