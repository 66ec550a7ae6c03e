import Foundation

/// Where the server reads the current time; tests substitute a clock they can move.
///
/// Times are cut to whole milliseconds, the precision the database stores and the API shows, so
/// an answer never shows a time its own record cannot reproduce.
package struct TimeSource: Sendable {
    private let clock: @Sendable () -> Date
    /// Whether this is the system clock, which the database's own clock can stand in for (see
    /// ``DatabaseClock``); a test's moved clock cannot.
    let isSystemClock: Bool

    /// A clock that reads `clock`; `isSystemClock` only for the system's own time, however offset.
    package init(now clock: @escaping @Sendable () -> Date, isSystemClock: Bool = false) {
        self.clock = clock
        self.isSystemClock = isSystemClock
    }

    /// The current time, in whole milliseconds.
    func now() -> Date {
        Date(millisecondsSince1970: clock().millisecondsSince1970)
    }

    /// The system clock.
    package static let system = TimeSource(now: { Date() }, isSystemClock: true)
}
