import Logging
import Synchronization

/// The database cannot do the work now: it is unreachable or restarting, a connection died, its
/// disk is full or failing. The work was not done, or (when a commit's answer was lost) was done
/// whole; the client is answered 503 `unavailable` and starts again. Each provider decides which
/// of its errors mean this, once, where its calls return.
struct DatabaseUnavailable: Error, CustomStringConvertible {
    /// What the database or its driver said, for the log; never a value a request carried.
    var reason: String
    var description: String { "database unavailable: \(reason)" }
}

/// Logs an outage when it starts and when it ends, not once for every request it refuses.
final class DatabaseOutageLog: Sendable {
    private let down = Atomic<Bool>(false)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Runs `work`; an error `classify` names an outage is logged (the first of a run) and thrown
    /// as ``DatabaseUnavailable`` in its place; the first success after an outage is logged,
    /// unless `endsOutage` is false (SQLite's reads go on while a full disk refuses writes).
    func watching<T>(endsOutage: Bool = true, _ classify: (any Error) -> DatabaseUnavailable?, _ work: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await work()
        } catch {
            guard let unavailable = classify(error) else { throw error }
            if !down.exchange(true, ordering: .relaxed) {
                logger.error("database unavailable: requests are answered 503 until it is back", metadata: ["reason": "\(unavailable.reason)"])
            }
            throw unavailable
        }
        if endsOutage, down.load(ordering: .relaxed), down.exchange(false, ordering: .relaxed) {
            logger.warning("database available again")
        }
        return value
    }
}
