import PostgresKit

extension PostgresDatabaseProvider {
    /// Whether `error` means PostgreSQL is unreachable, restarting or out of resources, rather
    /// than a refusal of the statement (a constraint) or a bug (an undecodable message).
    ///
    /// - Parameter leased: Whether a connection had been lent; any error before that (the pool's
    ///   circuit breaker, a cancelled or timed-out wait) is the database being unreachable.
    static func unavailability(of error: any Error, leased: Bool) -> DatabaseUnavailable? {
        if let error = error as? DatabaseUnavailable { return error }
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .unexpectedBackendMessage:  // PostgresNIO closes the connection after each of these
                return DatabaseUnavailable(reason: describe(error))
            case .server where isOutage(sqlState: error.serverInfo?[.sqlState] ?? ""):
                return DatabaseUnavailable(reason: describe(error))
            default:
                return leased ? nil : DatabaseUnavailable(reason: describe(error))
            }
        }
        if let error = error as? PostgresError, case .connectionClosed = error {
            return DatabaseUnavailable(reason: "the connection closed")
        }
        return leased ? nil : DatabaseUnavailable(reason: String(describing: error))
    }

    /// SQLSTATEs of an outage (PostgreSQL's appendix A): class 08 connection exceptions, 53
    /// insufficient resources (a full disk, too many connections), 58 system errors, 57P01–57P03
    /// (shutting down, crashed, starting up) and 25006 (a read-only standby after a failover).
    static func isOutage(sqlState: String) -> Bool {
        ["08", "53", "58"].contains(String(sqlState.prefix(2))) || ["57P01", "57P02", "57P03", "25006"].contains(sqlState)
    }
}
