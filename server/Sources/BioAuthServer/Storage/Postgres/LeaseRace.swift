import PostgresNIO
import Synchronization

/// One call's wait for a pooled PostgreSQL connection and its work on it, answered once.
///
/// Whichever comes first wins: the connection (the work runs) or the end of the wait (the caller
/// gets ``DatabaseUnavailable`` and a connection that arrives later goes straight back). Once the
/// work runs, it is waited for unless its connection closes under it: PostgresNIO drops a
/// statement written to a connection as it closes and never answers it, so work still running
/// half a second after its connection was seen closed (checked four times a second once the wait
/// is over) is given up (the work's task is left to its fate).
final class LeaseRace<T: Sendable>: Sendable {
    private enum Stage {
        case waiting
        case lent(PostgresConnection)
        case gaveUp
    }
    private struct State {
        var stage = Stage.waiting
        var continuation: CheckedContinuation<T, any Error>?
        var answered = false
    }
    private let state = Mutex(State())

    /// Runs `work` on a connection `lease` lends, answering within `wait` if none comes. An error
    /// `classify` names an outage (told whether a connection had been lent) is thrown as
    /// ``DatabaseUnavailable``; any other as it is.
    static func run(
        waitingAtMost wait: Duration,
        lease: @escaping @Sendable ((PostgresConnection) async throws -> T) async throws -> T,
        classify: (any Error, _ leased: Bool) -> DatabaseUnavailable?,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let race = LeaseRace()
        do {
            return try await race.run(wait, lease, work)
        } catch {
            throw classify(error, race.wasLent) ?? error
        }
    }

    private func run(
        _ wait: Duration,
        _ lease: @escaping @Sendable ((PostgresConnection) async throws -> T) async throws -> T,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.continuation = continuation }
            let leasing = Task {
                do {
                    self.answer(
                        .success(
                            try await lease { connection in
                                guard self.lend(connection) else { throw CancellationError() }  // the wait ran out first
                                return try await work(connection)
                            }
                        )
                    )
                } catch {
                    self.answer(.failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: wait)
                if self.giveUp() {
                    leasing.cancel()
                    self.answer(.failure(DatabaseUnavailable(reason: "no connection within \(wait)")))
                    return
                }
                while let connection = self.runningOn() {
                    try? await Task.sleep(for: .milliseconds(250))
                    if connection.isClosed {
                        try? await Task.sleep(for: .milliseconds(500))  // time for the work's own error
                        self.answer(.failure(DatabaseUnavailable(reason: "the connection closed under a statement")))
                    }
                }
            }
        }
    }

    private func lend(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard case .waiting = state.stage else { return false }
            state.stage = .lent(connection)
            return true
        }
    }

    private func giveUp() -> Bool {
        state.withLock { state in
            guard case .waiting = state.stage else { return false }
            state.stage = .gaveUp
            return true
        }
    }

    /// The connection the work runs on while it has not answered.
    private func runningOn() -> PostgresConnection? {
        state.withLock { state in
            guard !state.answered, case .lent(let connection) = state.stage else { return nil }
            return connection
        }
    }

    private var wasLent: Bool {
        state.withLock { state in
            if case .lent = state.stage { return true }
            return false
        }
    }

    private func answer(_ outcome: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}
