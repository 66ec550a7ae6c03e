import Synchronization

/// A first-in, first-out async lock: one holder at a time, waiters resumed in arrival order.
///
/// SQLite allows one writer at a time anyway; queueing in the process instead of spinning on
/// `SQLITE_BUSY` keeps latency fair and makes every transaction run alone on its connection.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Runs `body` while holding the gate.
    func withGate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()  // the gate stays held and passes straight to the next waiter
    }
}
