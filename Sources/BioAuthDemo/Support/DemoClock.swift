import Foundation
import Synchronization

/// The in-process server's clock: the system's, plus an offset the demo can move forward
/// (to let a challenge expire without waiting two minutes).
final class DemoClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Now, as the server sees it.
    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the server's time forward.
    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
