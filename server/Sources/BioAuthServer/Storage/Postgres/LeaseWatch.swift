import Synchronization

/// A wait the ``LeaseWatch`` checks on each of its rounds.
protocol WatchedLease: AnyObject, Sendable {
    /// Gives up whatever is overdue at `now`; returns whether the lease is over and can be
    /// forgotten.
    func check(at now: ContinuousClock.Instant) -> Bool
}

/// One task that watches every ``LeaseRace`` of a provider: a round each `interval` while any
/// is open, none while the provider is idle.
///
/// One watcher rather than a timer per call: a timer costs a task and a sleep, and the Swift
/// runtime keeps a cancelled `Task.sleep` until its deadline (swiftlang/swift#60441), so a timer
/// per call would hold one for every call made within the last wait.
final class LeaseWatch: Sendable {
    private struct State {
        var leases: [ObjectIdentifier: any WatchedLease] = [:]
    }
    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    let interval: Duration

    init(interval: Duration = .milliseconds(50)) {
        self.interval = interval
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Checks `lease` on every round until it says it is over.
    func add(_ lease: some WatchedLease) {
        let wasIdle = state.withLock { state in
            defer { state.leases[ObjectIdentifier(lease)] = lease }
            return state.leases.isEmpty
        }
        if wasIdle { wake.yield() }
    }

    /// Runs the rounds until the task running it is cancelled.
    func run() async {
        for await _ in wakes {  // parked while nothing is watched
            while true {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                if !round(at: .now) { break }
            }
        }
    }

    /// Checks every lease once; returns whether any is still open.
    private func round(at now: ContinuousClock.Instant) -> Bool {
        let leases = state.withLock { Array($0.leases.values) }
        let over = leases.filter { $0.check(at: now) }.map(ObjectIdentifier.init)
        return state.withLock { state in
            for id in over { state.leases[id] = nil }
            return !state.leases.isEmpty
        }
    }
}
