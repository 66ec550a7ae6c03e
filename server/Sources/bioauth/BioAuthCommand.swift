import ArgumentParser
import BioAuthProtocol

/// The `bioauth` command: what an operator runs.
@main
struct BioAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bioauth",
        abstract: "BioAuth: result-based biometric authentication.",
        version: BioAuthRelease.version,
        subcommands: [ServeCommand.self, AdminCommand.self]
    )
}
