import ArgumentParser
import BioAuthServer
import Foundation

/// `bioauth-dev configuration-table`: the settings table of docs/CONFIGURATION.md, made from the
/// settings' declarations (``ServerSetting``); a test holds the document to it.
struct ConfigurationTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configuration-table",
        abstract: "Print the settings table of docs/CONFIGURATION.md, or rewrite it there with --update."
    )

    /// The markers the table sits between in the document.
    static let begin = "<!-- settings table: made by `bioauth-dev configuration-table --update docs/CONFIGURATION.md` -->"
    static let end = "<!-- end of settings table -->"

    @Option(help: "Rewrite the table between its markers in this file instead of printing it.")
    var update: String?

    func run() throws {
        let table = ServerSetting.markdownTable()
        guard let update else { return print(table, terminator: "") }
        let text = try String(contentsOfFile: update, encoding: .utf8)
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end, range: start.upperBound..<text.endIndex) else {
            throw ValidationError("\(update) has no table markers:\n\(Self.begin)\n\(Self.end)")
        }
        try (text[..<start.upperBound] + "\n" + table + text[stop.lowerBound...]).write(toFile: update, atomically: true, encoding: .utf8)
    }
}
