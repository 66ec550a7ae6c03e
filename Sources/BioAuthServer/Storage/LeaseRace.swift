import Synchronization

/// The race between a pooled connection arriving and the wait for it running out: whichever
/// comes first wins, once. A connection that arrives after the wait gave up goes straight back.
final class LeaseRace: Sendable {
    private static let (waiting, lent, gaveUp) = (0, 1, 2)
    private let state = Atomic<Int>(LeaseRace.waiting)

    /// The connection arrived: true if the wait had not given up, and the body may run.
    func lend() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.lent, ordering: .acquiringAndReleasing).exchanged
    }

    /// The wait ran out: true if no connection had arrived, and none will be used.
    func giveUp() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.gaveUp, ordering: .acquiringAndReleasing).exchanged
    }

    /// Whether a connection was lent (so an error came from the work, not the wait).
    var wasLent: Bool { state.load(ordering: .acquiring) == Self.lent }
}
