import ArgumentParser
import BioAuthProtocol

/// The `bioauth-dev` command: a developer's tools beside the server, never shipped to an operator.
@main
struct BioAuthDevCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bioauth-dev",
        abstract: "BioAuth's developer tools: the simulated-phone demo, the benchmark, the configuration table.",
        version: BioAuthRelease.version,
        subcommands: [DemoCommand.self, BenchCommand.self, ConfigurationTableCommand.self]
    )
}
