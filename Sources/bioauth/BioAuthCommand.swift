import ArgumentParser

/// The `bioauth` command.
@main
struct BioAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bioauth",
        abstract: "BioAuth: result-based biometric authentication.",
        subcommands: [ServeCommand.self, AdminCommand.self, DemoCommand.self, BenchCommand.self]
    )
}
