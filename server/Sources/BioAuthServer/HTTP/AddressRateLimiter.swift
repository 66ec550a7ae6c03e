import Foundation
import Synchronization

/// Per-client-address request rate limit: at most `limit` requests per clock minute from one
/// address (an IPv6 /64 counts as one address, see ``ClientAddress``), then 429 `rate_limited` with `Retry-After` (the seconds left in the minute).
///
/// The counts live in this process's memory, so the limit holds per server instance; several
/// instances behind one balancer each allow `limit`. (Limits that protect stored state, such as
/// challenges per registration, are counted in the database instead.) Memory is bounded: only
/// the current minute's counters are kept.
final class AddressRateLimiter: Sendable {
    private struct Window {
        var start: Int64 = 0
        var counts: [String: Int] = [:]
    }

    let limit: Int
    private let time: TimeSource
    private let window = Mutex(Window())

    init(limit: Int, time: TimeSource) {
        self.limit = limit
        self.time = time
    }

    /// Counts one request from `address`; nil when admitted, else the seconds to wait.
    func admit(_ address: String) -> Int? {
        let now = time.now().millisecondsSince1970
        let start = now - now % 60_000
        return window.withLock { window in
            if window.start != start { window = Window(start: start) }
            let count = window.counts[address, default: 0]
            guard count < limit else {
                return Int((start + 60_000 - now + 999) / 1000)
            }
            window.counts[address] = count + 1
            return nil
        }
    }
}
