import Foundation
import Synchronization

/// The line on standard error that says what the benchmark is doing: rewritten in place twice a
/// second on a terminal, one line per phase otherwise (a log stays readable).
final class ProgressLine: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    private let current = Mutex<(label: String, count: @Sendable () -> Int)?>(nil)

    /// Says what starts now; `count` reports operations done so far.
    func begin(_ label: String, until end: ContinuousClock.Instant? = nil, count: @escaping @Sendable () -> Int) {
        current.withLock { $0 = (label, count) }
        guard isTerminal else { return }
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { [weak self] in
            while !Task.isCancelled, let self {
                let done = count()
                let elapsed = start.duration(to: clock.now).timeInterval
                let left = end.map { ", \(Int(max(0, clock.now.duration(to: $0).timeInterval).rounded(.up))) s left" } ?? ""
                self.write("\r\u{1B}[K\(label): \(done) done, \(Int(Double(done) / max(elapsed, 0.001)))/s\(left)")
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        ticker.withLock { $0 = task }
    }

    /// Ends the phase begun last.
    func end() {
        ticker.withLock {
            $0?.cancel()
            $0 = nil
        }
        guard let (label, count) = current.withLock({ $0 }) else { return }
        current.withLock { $0 = nil }
        write(isTerminal ? "\r\u{1B}[K" : "\(label): \(count()) done\n")
    }

    /// A one-off note (a phase without a count).
    func note(_ text: String) {
        write(isTerminal ? "\r\u{1B}[K\(text)\n" : "\(text)\n")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
