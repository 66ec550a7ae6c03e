import ArgumentParser
import BioAuthServer
import Foundation
import Logging

/// `bioauth serve`: the HTTP server over an embedded SQLite file or a shared PostgreSQL.
///
/// Its settings are declared once, in BioAuthServer's ``ServerSetting``: flag, environment
/// variable (a flag wins), range, and the default `ServerConfiguration()` holds; this command
/// reads its arguments and prints its help from those declarations.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the BioAuth server.",
        usage: "bioauth serve [--<setting> <value> ...]",
        discussion: "Every setting can also be given by its environment variable; a flag wins.\n\nSETTINGS:\n"
            + ServerSetting.optionsHelp()
    )

    /// The settings given, read against ``ServerSetting/all`` (argument-parser only collects them).
    @Argument(parsing: .allUnrecognized, help: .hidden) var arguments: [String] = []

    func run() async throws {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(
                flags: ServerSetting.flags(from: arguments),
                environment: ProcessInfo.processInfo.environment
            )
        } catch {
            throw ValidationError(error.description)
        }
        var logger = Logger(label: "bioauth")
        logger.logLevel = configuration.logLevel
        do {
            let server = try await AuthServer.open(configuration: configuration, logger: logger)
            try await server.run(
                onServerRunning: { host, port in
                    // Unbuffered, so a supervisor or test reading the pipe sees it at once.
                    let line =
                        "BioAuth listening on http://\(host):\(port) (database \(configuration.databaseDescription), relying party \(configuration.relyingPartyID))\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                },
                onMetricsRunning: { host, port in
                    FileHandle.standardOutput.write(Data("BioAuth metrics on http://\(host):\(port)/metrics\n".utf8))
                }
            )
        } catch {
            // Every failure an operator can fix (a port in use, a database, a key file) describes itself in one line.
            throw OperatorFailure.exit(String(describing: error))
        }
    }
}

/// A failure an operator can fix, printed as one `Error: <message>` line, without usage text or
/// a trace, and exit status 1.
enum OperatorFailure {
    /// Writes the line with one write, so no other thread's output can land inside it, and
    /// returns the exit status to throw.
    static func exit(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        return .failure
    }
}
