#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file descriptors a server may hold, and the client connections they leave room for.
///
/// Past the limit `accept` fails, and worse: the runtime's own threads cannot open what they need
/// (libdispatch aborts when its worker monitor cannot open `/proc/<tid>/stat`). So the connection
/// cap is checked against the limit at start, with room kept for everything else.
struct DescriptorBudget: Sendable, Equatable {
    /// The soft `RLIMIT_NOFILE`, after ``raisedToHardLimit()``.
    var limit: Int
    /// Descriptors kept for everything but client connections.
    var reserved: Int

    /// The cap when the operator sets none (`--max-connections 0`), if the limit leaves room.
    static let defaultConnections = 4096

    /// Descriptors kept besides client connections: the database's connections (a PostgreSQL
    /// pool's; SQLite's connections and their WAL and shared-memory files), the metrics listener
    /// and its connections, key and certificate files, and the runtime's pipes and `/proc` reads.
    static func reserve(databaseConnections: Int) -> Int {
        128 + databaseConnections
    }

    /// Raises this process's soft descriptor limit to its hard limit, and reads it.
    static func raisedToHardLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }

    /// The connection cap: `configured` when it fits, or (0) the default cut to what fits.
    func connectionCap(configured: Int) throws(SettingError) -> Int {
        let room = limit - reserved
        guard configured > 0 else {
            guard room >= 16 else {
                throw SettingError(
                    "the descriptor limit (\(limit)) leaves no room for client connections beside the \(reserved) the server keeps; raise it (LimitNOFILE= in the systemd unit, ulimit -n), see docs/DEPLOYMENT.md."
                )
            }
            return min(Self.defaultConnections, room)
        }
        guard configured <= room else {
            throw SettingError(
                "--max-connections \(configured) needs \(configured + reserved) file descriptors, and the limit is \(limit); raise it (LimitNOFILE= in the systemd unit, ulimit -n) or lower --max-connections to \(max(0, room)), see docs/DEPLOYMENT.md."
            )
        }
        return configured
    }
}
