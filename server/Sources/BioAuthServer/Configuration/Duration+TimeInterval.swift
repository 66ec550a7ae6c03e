import Foundation

extension Duration {
    /// The duration in seconds, as Foundation measures time.
    package var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
