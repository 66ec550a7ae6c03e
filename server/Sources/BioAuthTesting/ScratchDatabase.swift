import BioAuthServer
import Foundation
import Logging
import SQLKit

/// Throwaway PostgreSQL databases, for `bioauth-dev bench` and the test suite: every measurement or
/// test starts from an empty schema without touching the server's other databases.
package enum ScratchDatabase {
    /// Creates the database `name`, runs `body` with a URL for it, and drops it afterwards, also
    /// when `body` throws.
    package static func with<T: Sendable>(
        _ name: String,
        on adminURL: String,
        logger: Logger,
        _ body: (String) async throws -> T
    ) async throws -> T {
        let url = try await create(name, on: adminURL, logger: logger)
        do {
            let result = try await body(url)
            try await drop(name, on: adminURL, logger: logger)
            return result
        } catch {
            try? await drop(name, on: adminURL, logger: logger)
            throw error
        }
    }

    /// Creates a database named `name` on the server `adminURL` reaches, and returns a URL for it.
    package static func create(_ name: String, on adminURL: String, logger: Logger) async throws -> String {
        try await withAdmin(adminURL, logger: logger) { db in
            try await db.raw("CREATE DATABASE \(ident: name)").run()
        }
        guard var components = URLComponents(string: adminURL) else { throw InvalidURL(url: adminURL) }
        components.path = "/" + name
        guard let url = components.string else { throw InvalidURL(url: adminURL) }
        return url
    }

    /// Drops the database `name` (made by ``create(_:on:logger:)``), if it is there, closing any
    /// connection still open to it.
    package static func drop(_ name: String, on adminURL: String, logger: Logger) async throws {
        try await withAdmin(adminURL, logger: logger) { db in
            try await db.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run()
        }
    }

    /// The URL does not parse as a URL.
    struct InvalidURL: Error, CustomStringConvertible {
        var url: String
        var description: String { "\(DatabaseLocation.redacted(url)) is not a URL" }
    }

    private static func withAdmin(_ url: String, logger: Logger, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        let admin = try await PostgresDatabaseProvider.open(url: url, maxConnections: 1, logger: logger)
        do {
            try await admin.withDatabase(body)
        } catch {
            try? await admin.shutdown()
            throw error
        }
        try await admin.shutdown()
    }
}
