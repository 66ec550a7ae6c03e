import Synchronization

/// A first-in, first-out async semaphore: at most `width` holders at a time (one by default),
/// waiters resumed in arrival order.
///
/// SQLite allows one writer at a time anyway; queueing in the process instead of spinning on
/// `SQLITE_BUSY` keeps latency fair and makes every transaction run alone on its connection.
final class AsyncGate: Sendable {
    private struct State {
        var holders = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let width: Int
    private let state = Mutex(State())

    /// A gate that lets `width` holders in at once.
    init(width: Int = 1) {
        precondition(width > 0, "a gate needs room for one holder")
        self.width = width
    }

    /// Runs `body` while holding one place in the gate.
    func withGate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    /// Whether anyone is queued for a place (a snapshot: one may arrive just after).
    var hasWaiters: Bool { waiting > 0 }

    /// How many are queued for a place.
    var waiting: Int { state.withLock { $0.waiters.count } }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.holders == width {
                    state.waiters.append(continuation)
                    return false
                }
                state.holders += 1
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.holders -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()  // the place passes straight to the next waiter
    }
}
