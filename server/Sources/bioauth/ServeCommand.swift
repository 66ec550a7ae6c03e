import ArgumentParser
import BioAuthServer
import Foundation
import Logging

/// `bioauth serve`: the HTTP server over an embedded SQLite file or a shared PostgreSQL.
///
/// Its settings are declared once, in BioAuthServer's ``ServerSetting``: flag, environment
/// variable (a flag wins), range, and the default `ServerConfiguration()` holds.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the BioAuth server.",
        discussion: "Every option can also be set by its environment variable (a flag wins): "
            + ServerSetting.all.map(\.variable).joined(separator: ", ") + "."
    )

    // One property per setting, as argument-parser needs; each takes its name and help from the
    // setting's one declaration, and the resolver checks every value.
    @Option(name: .customLong(ServerSetting.host.flag), help: ArgumentHelp(ServerSetting.host.help)) var host: String?
    @Option(name: .customLong(ServerSetting.port.flag), help: ArgumentHelp(ServerSetting.port.help)) var port: Int?
    @Option(name: .customLong(ServerSetting.metricsHost.flag), help: ArgumentHelp(ServerSetting.metricsHost.help)) var metricsHost: String?
    @Option(name: .customLong(ServerSetting.metricsPort.flag), help: ArgumentHelp(ServerSetting.metricsPort.help)) var metricsPort: Int?
    @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp(ServerSetting.database.help)) var database: String?
    @Option(name: .customLong(ServerSetting.databaseConnections.flag), help: ArgumentHelp(ServerSetting.databaseConnections.help))
    var databaseConnections: Int?
    @Option(name: .customLong(ServerSetting.databaseWait.flag), help: ArgumentHelp(ServerSetting.databaseWait.help)) var databaseWait: Int?
    @Option(name: .customLong(ServerSetting.eventLoops.flag), help: ArgumentHelp(ServerSetting.eventLoops.help))
    var eventLoops: Int?
    @Option(name: .customLong(ServerSetting.relyingParty.flag), help: ArgumentHelp(ServerSetting.relyingParty.help)) var relyingParty: String?
    @Option(name: .customLong(ServerSetting.challengeTTL.flag), help: ArgumentHelp(ServerSetting.challengeTTL.help)) var challengeTTL: Int?
    @Option(name: .customLong(ServerSetting.sessionMinutes.flag), help: ArgumentHelp(ServerSetting.sessionMinutes.help)) var sessionMinutes: Int?
    @Option(name: .customLong(ServerSetting.sessionMaxMinutes.flag), help: ArgumentHelp(ServerSetting.sessionMaxMinutes.help))
    var sessionMaxMinutes: Int?
    @Option(name: .customLong(ServerSetting.sessionIdleMinutes.flag), help: ArgumentHelp(ServerSetting.sessionIdleMinutes.help))
    var sessionIdleMinutes: Int?
    @Option(name: .customLong(ServerSetting.passwordCost.flag), help: ArgumentHelp(ServerSetting.passwordCost.help)) var passwordCost: Int?
    @Option(name: .customLong(ServerSetting.maxRegistrations.flag), help: ArgumentHelp(ServerSetting.maxRegistrations.help))
    var maxRegistrations: Int?
    @Option(name: .customLong(ServerSetting.maxPendingRegistrations.flag), help: ArgumentHelp(ServerSetting.maxPendingRegistrations.help))
    var maxPendingRegistrations: Int?
    @Option(name: .customLong(ServerSetting.challengesPerMinute.flag), help: ArgumentHelp(ServerSetting.challengesPerMinute.help))
    var challengesPerMinute: Int?
    @Option(name: .customLong(ServerSetting.requestsPerMinute.flag), help: ArgumentHelp(ServerSetting.requestsPerMinute.help))
    var requestsPerMinute: Int?
    @Option(name: .customLong(ServerSetting.maxConnections.flag), help: ArgumentHelp(ServerSetting.maxConnections.help))
    var maxConnections: Int?
    @Option(name: .customLong(ServerSetting.maxConnectionsPerAddress.flag), help: ArgumentHelp(ServerSetting.maxConnectionsPerAddress.help))
    var maxConnectionsPerAddress: Int?
    @Option(name: .customLong(ServerSetting.hashQueue.flag), help: ArgumentHelp(ServerSetting.hashQueue.help)) var hashQueue: Int?
    @Option(name: .customLong(ServerSetting.hashesPerAddress.flag), help: ArgumentHelp(ServerSetting.hashesPerAddress.help))
    var hashesPerAddress: Int?
    @Flag(name: .customLong(ServerSetting.trustForwardedFor.flag), help: ArgumentHelp(ServerSetting.trustForwardedFor.help))
    var trustForwardedFor = false
    @Option(name: .customLong(ServerSetting.requestTimeout.flag), help: ArgumentHelp(ServerSetting.requestTimeout.help)) var requestTimeout: Int?
    @Option(name: .customLong(ServerSetting.maxHeaderBytes.flag), help: ArgumentHelp(ServerSetting.maxHeaderBytes.help)) var maxHeaderBytes: Int?
    @Option(name: .customLong(ServerSetting.purgeInterval.flag), help: ArgumentHelp(ServerSetting.purgeInterval.help)) var purgeInterval: Int?
    @Option(name: .customLong(ServerSetting.sessionRetentionDays.flag), help: ArgumentHelp(ServerSetting.sessionRetentionDays.help))
    var sessionRetentionDays: Int?
    @Option(name: .customLong(ServerSetting.auditRetentionDays.flag), help: ArgumentHelp(ServerSetting.auditRetentionDays.help))
    var auditRetentionDays: Int?
    @Option(name: .customLong(ServerSetting.lockoutThreshold.flag), help: ArgumentHelp(ServerSetting.lockoutThreshold.help))
    var lockoutThreshold: Int?
    @Option(name: .customLong(ServerSetting.lockoutMinutes.flag), help: ArgumentHelp(ServerSetting.lockoutMinutes.help)) var lockoutMinutes: Int?
    @Option(name: .customLong(ServerSetting.lockoutMaxMinutes.flag), help: ArgumentHelp(ServerSetting.lockoutMaxMinutes.help))
    var lockoutMaxMinutes: Int?
    @Option(name: .customLong(ServerSetting.passwordMaxFailures.flag), help: ArgumentHelp(ServerSetting.passwordMaxFailures.help))
    var passwordMaxFailures: Int?
    @Option(name: .customLong(ServerSetting.pinMaxLockouts.flag), help: ArgumentHelp(ServerSetting.pinMaxLockouts.help)) var pinMaxLockouts: Int?
    @Option(name: .customLong(ServerSetting.stepUpMinutes.flag), help: ArgumentHelp(ServerSetting.stepUpMinutes.help)) var stepUpMinutes: Int?
    @Option(name: .customLong(ServerSetting.pinKeyFile.flag), help: ArgumentHelp(ServerSetting.pinKeyFile.help)) var pinKeyFile: String?
    @Option(name: .customLong(ServerSetting.relyingPartyName.flag), help: ArgumentHelp(ServerSetting.relyingPartyName.help))
    var relyingPartyName: String?
    @Option(name: .customLong(ServerSetting.webAuthnOrigin.flag), help: ArgumentHelp(ServerSetting.webAuthnOrigin.help))
    var webAuthnOrigin: [String] = []
    @Option(name: .customLong(ServerSetting.webAuthnTopOrigin.flag), help: ArgumentHelp(ServerSetting.webAuthnTopOrigin.help))
    var webAuthnTopOrigin: [String] = []
    @Option(name: .customLong(ServerSetting.webAuthnUserVerification.flag), help: ArgumentHelp(ServerSetting.webAuthnUserVerification.help))
    var webAuthnUserVerification: String?
    @Option(name: .customLong(ServerSetting.webAuthnAttestation.flag), help: ArgumentHelp(ServerSetting.webAuthnAttestation.help))
    var webAuthnAttestation: String?
    @Option(name: .customLong(ServerSetting.webAuthnTrustRoots.flag), help: ArgumentHelp(ServerSetting.webAuthnTrustRoots.help))
    var webAuthnTrustRoots: String?
    @Option(name: .customLong(ServerSetting.logLevel.flag), help: ArgumentHelp(ServerSetting.logLevel.help)) var logLevel: String?

    /// The flags given, as text, by setting.
    private var flags: [String: String] {
        let given: [(ServerSetting, String?)] = [
            (.host, host), (.port, port.map(String.init)), (.metricsHost, metricsHost), (.metricsPort, metricsPort.map(String.init)),
            (.database, database), (.databaseConnections, databaseConnections.map(String.init)),
            (.databaseWait, databaseWait.map(String.init)),
            (.eventLoops, eventLoops.map(String.init)), (.relyingParty, relyingParty),
            (.challengeTTL, challengeTTL.map(String.init)), (.sessionMinutes, sessionMinutes.map(String.init)),
            (.sessionMaxMinutes, sessionMaxMinutes.map(String.init)), (.sessionIdleMinutes, sessionIdleMinutes.map(String.init)),
            (.passwordCost, passwordCost.map(String.init)), (.maxRegistrations, maxRegistrations.map(String.init)),
            (.maxPendingRegistrations, maxPendingRegistrations.map(String.init)), (.challengesPerMinute, challengesPerMinute.map(String.init)),
            (.requestsPerMinute, requestsPerMinute.map(String.init)), (.maxConnections, maxConnections.map(String.init)),
            (.maxConnectionsPerAddress, maxConnectionsPerAddress.map(String.init)), (.hashQueue, hashQueue.map(String.init)),
            (.hashesPerAddress, hashesPerAddress.map(String.init)), (.trustForwardedFor, trustForwardedFor ? "true" : nil),
            (.requestTimeout, requestTimeout.map(String.init)), (.maxHeaderBytes, maxHeaderBytes.map(String.init)),
            (.purgeInterval, purgeInterval.map(String.init)), (.sessionRetentionDays, sessionRetentionDays.map(String.init)),
            (.auditRetentionDays, auditRetentionDays.map(String.init)), (.lockoutThreshold, lockoutThreshold.map(String.init)),
            (.lockoutMinutes, lockoutMinutes.map(String.init)), (.lockoutMaxMinutes, lockoutMaxMinutes.map(String.init)),
            (.passwordMaxFailures, passwordMaxFailures.map(String.init)), (.pinMaxLockouts, pinMaxLockouts.map(String.init)),
            (.stepUpMinutes, stepUpMinutes.map(String.init)),
            (.pinKeyFile, pinKeyFile), (.relyingPartyName, relyingPartyName),
            (.webAuthnOrigin, webAuthnOrigin.isEmpty ? nil : webAuthnOrigin.joined(separator: ",")),
            (.webAuthnTopOrigin, webAuthnTopOrigin.isEmpty ? nil : webAuthnTopOrigin.joined(separator: ",")),
            (.webAuthnUserVerification, webAuthnUserVerification), (.webAuthnAttestation, webAuthnAttestation),
            (.webAuthnTrustRoots, webAuthnTrustRoots), (.logLevel, logLevel),
        ]
        return Dictionary(uniqueKeysWithValues: given.compactMap { setting, text in text.map { (setting.flag, $0) } })
    }

    func run() async throws {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        var logger = Logger(label: "bioauth")
        logger.logLevel = configuration.logLevel
        do {
            let server = try await AuthServer.open(configuration: configuration, logger: logger)
            try await server.run(onServerRunning: { host, port in
                // Unbuffered, so a supervisor or test reading the pipe sees it at once.
                let line = "BioAuth listening on http://\(host):\(port) (database \(configuration.databaseDescription), relying party \(configuration.relyingPartyID))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }, onMetricsRunning: { host, port in
                FileHandle.standardOutput.write(Data("BioAuth metrics on http://\(host):\(port)/metrics\n".utf8))
            })
        } catch {
            // Every failure an operator can fix (a port in use, a database, a key file) describes itself in one line.
            throw ValidationFailure(String(describing: error))
        }
    }
}

/// A failure printed as `Error: <message>` with exit status 1, without usage text or a trace.
struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
