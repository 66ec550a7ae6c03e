import Foundation
import Synchronization

/// The clock of a server a test or the demo starts in process: it can be moved forward, so a
/// challenge, a lockout or a step-up window expires without waiting for it.
package final class ServerClock: Sendable {
    /// Where time stands: a fixed instant, or the system's time, plus what ``advance(seconds:)`` added.
    private let state: Mutex<(start: Date?, offset: TimeInterval)>

    private init(start: Date?) {
        state = Mutex((start, 0))
    }

    /// A clock that stands still at `start` until moved: a test's timings are exact.
    package static func frozen(at start: Date = Date()) -> ServerClock {
        ServerClock(start: start)
    }

    /// The system's clock, moved forward by what ``advance(seconds:)`` adds.
    package static func system() -> ServerClock {
        ServerClock(start: nil)
    }

    /// Now, as the server sees it.
    package var now: Date {
        state.withLock { ($0.start ?? Date()).addingTimeInterval($0.offset) }
    }

    /// Moves the clock forward.
    package func advance(seconds: TimeInterval) {
        state.withLock { $0.offset += seconds }
    }
}
