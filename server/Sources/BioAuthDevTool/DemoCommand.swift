import ArgumentParser
import BioAuthDemo
import BioAuthTesting
import Foundation

/// `bioauth-dev demo`: the whole scenario, attacks included, on a simulated phone.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk the biometric sign-in scenario and the attacks on it, on a simulated phone.",
        discussion: """
            Starts a server in-process on a temporary SQLite file (deleted afterwards), or talks to \
            a running one with --server. Ends with a table of security properties; the exit status \
            is non-zero if any failed.
            """
    )

    @Option(help: "Talk to a running server (e.g. http://127.0.0.1:8080) instead of starting one in-process.")
    var server: String?

    @Option(name: .customLong("relying-party"), help: "The relying-party id of the --server (default: localhost, as `bioauth serve`).")
    var relyingParty = "localhost"

    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @Flag(help: "Wait for Enter between steps.")
    var step = false

    func run() async throws {
        let renderer = DemoRenderer.forStandardOutput()
        let onSection: (DemoSection) async -> Void = { section in
            guard !json else { return }
            write(renderer.render(section))
            if step {
                write("(press Enter to continue)")
                _ = readLine()
            }
        }
        let report: DemoReport
        if let server {
            guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--server must be an http(s) URL, e.g. http://127.0.0.1:8080")
            }
            if !json {
                write(renderer.header(mode: "remote; the stolen-database and expired-challenge attacks need an in-process server", server: server))
            }
            report = await DemoRunner.run(target: .remote(url, relyingPartyID: relyingParty), onSection: onSection)
        } else {
            let inProcess: LoopbackServer
            do {
                inProcess = try await LoopbackServer.startDemo()
            } catch {
                FileHandle.standardError.write(Data("Error: cannot start the in-process server: \(error)\n".utf8))
                throw ExitCode.failure
            }
            if !json { write(renderer.header(mode: "in-process, temporary SQLite file", server: inProcess.baseURL.absoluteString)) }
            report = await DemoRunner.run(target: .inProcess(inProcess), onSection: onSection)
            try? await inProcess.stop()
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            write(renderer.table(report.properties))
        }
        if !report.allPassed { throw ExitCode(1) }
    }

    /// Writes to standard output; a reader that went away (`| head`) is not an error: the demo
    /// runs to the end so that the in-process server still deletes its database.
    private func write(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }
}
