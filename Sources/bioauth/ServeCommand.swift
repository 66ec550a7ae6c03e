import ArgumentParser
import BioAuthServer
import Foundation
import Logging
import NIOCore

/// `bioauth serve`: the HTTP server over an embedded SQLite file.
///
/// Every option can also be set by an environment variable; a flag wins over the variable.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the BioAuth server.",
        discussion: """
            Environment variables (a flag wins): BIOAUTH_HOST, BIOAUTH_PORT, BIOAUTH_METRICS_HOST, BIOAUTH_METRICS_PORT, BIOAUTH_DATABASE, BIOAUTH_DATABASE_CONNECTIONS, \
            BIOAUTH_RELYING_PARTY, BIOAUTH_CHALLENGE_TTL, BIOAUTH_SESSION_MINUTES, BIOAUTH_PASSWORD_COST, \
            BIOAUTH_MAX_REGISTRATIONS, BIOAUTH_MAX_PENDING_REGISTRATIONS, BIOAUTH_CHALLENGES_PER_MINUTE, \
            BIOAUTH_REQUESTS_PER_MINUTE, BIOAUTH_TRUST_FORWARDED_FOR, BIOAUTH_REQUEST_TIMEOUT, BIOAUTH_MAX_HEADER_BYTES, \
            BIOAUTH_PURGE_INTERVAL, BIOAUTH_SESSION_RETENTION_DAYS, BIOAUTH_AUDIT_RETENTION_DAYS, BIOAUTH_STEP_UP_MINUTES, \
            BIOAUTH_PIN_KEY_FILE, BIOAUTH_LOG_LEVEL.
            """
    )

    @Option(help: "Address to listen on. [env: BIOAUTH_HOST] (default: 127.0.0.1)")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one. [env: BIOAUTH_PORT] (default: 8080)")
    var port: Int?

    @Option(name: .customLong("metrics-host"), help: "Address the metrics listener (GET /metrics) binds; keep it private. [env: BIOAUTH_METRICS_HOST] (default: 127.0.0.1)")
    var metricsHost: String?

    @Option(name: .customLong("metrics-port"), help: "Port of the metrics listener; 0 picks a free one. [env: BIOAUTH_METRICS_PORT] (default: 9464)")
    var metricsPort: Int?

    @Option(help: "postgres://USER:PASSWORD@HOST:PORT/DATABASE for PostgreSQL, anything else a SQLite file. [env: BIOAUTH_DATABASE] (default: ./bioauth.sqlite)")
    var database: String?

    @Option(name: .customLong("database-connections"), help: "Most PostgreSQL connections this instance opens, 1...1000. [env: BIOAUTH_DATABASE_CONNECTIONS] (default: 20)")
    var databaseConnections: Int?

    @Option(name: .customLong("relying-party"), help: "Relying-party id signed into every message. [env: BIOAUTH_RELYING_PARTY] (default: localhost)")
    var relyingParty: String?

    @Option(name: .customLong("challenge-ttl"), help: "Challenge lifetime in seconds. [env: BIOAUTH_CHALLENGE_TTL] (default: 120)")
    var challengeTTL: Int?

    @Option(name: .customLong("session-minutes"), help: "Default session lifetime in minutes, 5...43200. [env: BIOAUTH_SESSION_MINUTES] (default: 60)")
    var sessionMinutes: Int?

    @Option(name: .customLong("password-cost"), help: "bcrypt cost for passwords and PINs, 10...16. [env: BIOAUTH_PASSWORD_COST] (default: 12)")
    var passwordCost: Int?

    @Option(name: .customLong("max-registrations"), help: "Registrations (pending and active) per user, 1...1000. [env: BIOAUTH_MAX_REGISTRATIONS] (default: 10)")
    var maxRegistrations: Int?

    @Option(name: .customLong("max-pending-registrations"), help: "Unverified registrations per user, 1...1000. [env: BIOAUTH_MAX_PENDING_REGISTRATIONS] (default: 3)")
    var maxPendingRegistrations: Int?

    @Option(name: .customLong("challenges-per-minute"), help: "Authentication challenges per registration per minute, 1...10000. [env: BIOAUTH_CHALLENGES_PER_MINUTE] (default: 10)")
    var challengesPerMinute: Int?

    @Option(name: .customLong("requests-per-minute"), help: "Requests per client address per minute, per instance, 1...1000000. [env: BIOAUTH_REQUESTS_PER_MINUTE] (default: 600)")
    var requestsPerMinute: Int?

    @Flag(name: .customLong("trust-forwarded-for"), help: "Take the client address from X-Forwarded-For (only behind a proxy that sets it). [env: BIOAUTH_TRUST_FORWARDED_FOR=true]")
    var trustForwardedFor = false

    @Option(name: .customLong("request-timeout"), help: "Seconds a connection may stay silent before it is closed, and the most a request body may take to arrive, 1...3600. [env: BIOAUTH_REQUEST_TIMEOUT] (default: 30)")
    var requestTimeout: Int?

    @Option(name: .customLong("max-header-bytes"), help: "Largest request head in bytes, 1024...1048576. [env: BIOAUTH_MAX_HEADER_BYTES] (default: 16384)")
    var maxHeaderBytes: Int?

    @Option(name: .customLong("purge-interval"), help: "Seconds between purges of expired rows, 1...86400. [env: BIOAUTH_PURGE_INTERVAL] (default: 300)")
    var purgeInterval: Int?

    @Option(name: .customLong("session-retention-days"), help: "Days expired and revoked sessions are kept before the purge, 0...3650. [env: BIOAUTH_SESSION_RETENTION_DAYS] (default: 7)")
    var sessionRetentionDays: Int?

    @Option(name: .customLong("audit-retention-days"), help: "Days audit events are kept before the purge, 1...3650. [env: BIOAUTH_AUDIT_RETENTION_DAYS] (default: 365)")
    var auditRetentionDays: Int?

    @Option(name: .customLong("step-up-minutes"), help: "How recent a sign-in or re-authentication must be to register a device key, set a PIN or change the password, 1...60. [env: BIOAUTH_STEP_UP_MINUTES] (default: 5)")
    var stepUpMinutes: Int?

    @Option(name: .customLong("pin-key-file"), help: "File of the server keys PIN hashes are made with; required with PostgreSQL (the same file on every instance). [env: BIOAUTH_PIN_KEY_FILE] (default: <database>.pin-key beside a SQLite file, created at first start)")
    var pinKeyFile: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. [env: BIOAUTH_LOG_LEVEL] (default: info)")
    var logLevel: String?

    func run() async throws {
        let settings = try resolvedSettings()
        var logger = Logger(label: "bioauth")
        logger.logLevel = settings.logLevel
        do {
            let server = try await AuthServer.open(configuration: settings.configuration, logger: logger)
            try await server.run(onServerRunning: { host, port in
                // Unbuffered, so a supervisor or test reading the pipe sees it at once.
                let line = "BioAuth listening on http://\(host):\(port) (database \(settings.configuration.databaseDescription), relying party \(settings.configuration.relyingPartyID))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }, onMetricsRunning: { host, port in
                FileHandle.standardOutput.write(Data("BioAuth metrics on http://\(host):\(port)/metrics\n".utf8))
            })
        } catch {
            throw ValidationFailure(describe(error, configuration: settings.configuration))
        }
    }

    /// Flags, then environment variables, then defaults; each checked.
    private func resolvedSettings() throws -> (configuration: ServerConfiguration, logLevel: Logger.Level) {
        let environment = ProcessInfo.processInfo.environment
        func value<T>(_ flag: T?, _ variable: String, parse: (String) -> T?) throws -> T? {
            if let flag { return flag }
            guard let text = environment[variable] else { return nil }
            guard let parsed = parse(text) else { throw ValidationError("\(variable)=\(text) is not valid.") }
            return parsed
        }
        var configuration = ServerConfiguration()
        if let host = try value(host, "BIOAUTH_HOST", parse: { $0 }) { configuration.host = host }
        if let port = try value(port, "BIOAUTH_PORT", parse: { Int($0) }) {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
            configuration.port = port
        }
        if let host = try value(metricsHost, "BIOAUTH_METRICS_HOST", parse: { $0 }) { configuration.metricsHost = host }
        if let port = try value(metricsPort, "BIOAUTH_METRICS_PORT", parse: { Int($0) }) {
            guard (0...65_535).contains(port) else { throw ValidationError("--metrics-port must be 0...65535.") }
            configuration.metricsPort = port
        }
        if let database = try value(database, "BIOAUTH_DATABASE", parse: { $0 }) { configuration.databasePath = database }
        if let relyingParty = try value(relyingParty, "BIOAUTH_RELYING_PARTY", parse: { $0 }) {
            guard !relyingParty.isEmpty, relyingParty.utf8.count <= 255 else { throw ValidationError("--relying-party must be 1...255 bytes.") }
            configuration.relyingPartyID = relyingParty
        }
        if let ttl = try value(challengeTTL, "BIOAUTH_CHALLENGE_TTL", parse: { Int($0) }) {
            guard (1...3_600).contains(ttl) else { throw ValidationError("--challenge-ttl must be 1...3600 seconds.") }
            configuration.challengeTTL = .seconds(ttl)
        }
        if let minutes = try value(sessionMinutes, "BIOAUTH_SESSION_MINUTES", parse: { Int($0) }) {
            guard (5...43_200).contains(minutes) else { throw ValidationError("--session-minutes must be 5...43200.") }
            configuration.defaultSessionMinutes = minutes
        }
        if let cost = try value(passwordCost, "BIOAUTH_PASSWORD_COST", parse: { Int($0) }) {
            guard (10...16).contains(cost) else { throw ValidationError("--password-cost must be 10...16.") }
            configuration.passwordHashCost = UInt8(cost)
        }
        func limit(_ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let number = try value(flag, variable, parse: { Int($0) }) else { return nil }
            guard range.contains(number) else { throw ValidationError("--\(name) must be \(range.lowerBound)...\(range.upperBound).") }
            return number
        }
        if let number = try limit(databaseConnections, "BIOAUTH_DATABASE_CONNECTIONS", "database-connections", 1...1_000) {
            configuration.databaseMaxConnections = number
        }
        if let number = try limit(maxRegistrations, "BIOAUTH_MAX_REGISTRATIONS", "max-registrations", 1...1_000) {
            configuration.maxRegistrationsPerUser = number
        }
        if let number = try limit(maxPendingRegistrations, "BIOAUTH_MAX_PENDING_REGISTRATIONS", "max-pending-registrations", 1...1_000) {
            configuration.maxPendingRegistrationsPerUser = number
        }
        if let number = try limit(challengesPerMinute, "BIOAUTH_CHALLENGES_PER_MINUTE", "challenges-per-minute", 1...10_000) {
            configuration.challengesPerRegistrationPerMinute = number
        }
        if let number = try limit(requestsPerMinute, "BIOAUTH_REQUESTS_PER_MINUTE", "requests-per-minute", 1...1_000_000) {
            configuration.requestsPerMinutePerAddress = number
        }
        if let trust = try value(trustForwardedFor ? true : nil, "BIOAUTH_TRUST_FORWARDED_FOR", parse: { ["1", "true", "yes"].contains($0.lowercased()) ? true : ["0", "false", "no", ""].contains($0.lowercased()) ? false : nil }) {
            configuration.trustForwardedFor = trust
        }
        if let seconds = try limit(requestTimeout, "BIOAUTH_REQUEST_TIMEOUT", "request-timeout", 1...3_600) {
            configuration.requestTimeout = .seconds(seconds)
        }
        if let bytes = try limit(maxHeaderBytes, "BIOAUTH_MAX_HEADER_BYTES", "max-header-bytes", 1_024...1_048_576) {
            configuration.maxHeaderBytes = bytes
        }
        if let seconds = try limit(purgeInterval, "BIOAUTH_PURGE_INTERVAL", "purge-interval", 1...86_400) {
            configuration.purgeInterval = .seconds(seconds)
        }
        if let days = try limit(sessionRetentionDays, "BIOAUTH_SESSION_RETENTION_DAYS", "session-retention-days", 0...3_650) {
            configuration.expiredSessionRetention = .seconds(days * 86_400)
        }
        if let days = try limit(auditRetentionDays, "BIOAUTH_AUDIT_RETENTION_DAYS", "audit-retention-days", 1...3_650) {
            configuration.auditRetention = .seconds(days * 86_400)
        }
        if let minutes = try limit(stepUpMinutes, "BIOAUTH_STEP_UP_MINUTES", "step-up-minutes", 1...60) {
            configuration.stepUpWindow = .seconds(minutes * 60)
        }
        if let file = try value(pinKeyFile, "BIOAUTH_PIN_KEY_FILE", parse: { $0 }) { configuration.pinKeyFile = file }
        let levelText = try value(logLevel, "BIOAUTH_LOG_LEVEL", parse: { $0 }) ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else { throw ValidationError("--log-level \(levelText) is not a log level.") }
        return (configuration, level)
    }

    /// One line for the failures an operator can fix.
    private func describe(_ error: any Error, configuration: ServerConfiguration) -> String {
        if let error = error as? IOError, error.errnoCode == EADDRINUSE {
            return "port \(configuration.port) on \(configuration.host) is already in use"
        }
        if let error = error as? IOError, error.errnoCode == EADDRNOTAVAIL {
            return "cannot listen on \(configuration.host): no such address on this machine"
        }
        return String(describing: error)
    }
}

/// A failure printed as `Error: <message>` with exit status 1, without usage text or a trace.
struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
