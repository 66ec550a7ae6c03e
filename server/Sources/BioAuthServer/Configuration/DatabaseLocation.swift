import Foundation

/// What `--database` names: a SQLite file's path, or a PostgreSQL URL.
package enum DatabaseLocation {
    /// Whether `location` is a PostgreSQL URL (`postgres://` or `postgresql://`), not a file's path.
    package static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// The location fit for logs and the start-up line: a URL without its password.
    package static func redacted(_ location: String) -> String {
        guard var components = URLComponents(string: location), components.password != nil else { return location }
        components.password = "***"
        return components.string ?? "postgres://…"
    }
}
