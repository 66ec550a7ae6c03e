import Foundation

extension Date {
    /// Milliseconds since 1970, the form every time takes in the database (portable BIGINT).
    package var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A date from database milliseconds.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
