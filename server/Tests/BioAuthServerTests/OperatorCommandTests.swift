import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// The binary an operator runs ships only what an operator runs; the developer's tools are a
/// separate binary.
@Suite("What each binary offers")
struct OperatorCommandTests {
    /// The subcommands `--help` lists.
    private static func subcommands(_ program: BioAuthProcess.Program) async throws -> [String] {
        let help = try await BioAuthProcess.run(["--help"], program: program)
        #expect(help.status == 0)
        let lines = String(decoding: help.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "SUBCOMMANDS:" })
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            // "  serve    Run the BioAuth server." (descriptions wrap onto lines indented further)
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }
    }

    @Test("bioauth --help lists only serve and admin; bioauth --version is the release's version")
    func operatorBinary() async throws {
        #expect(try await Self.subcommands(.bioauth) == ["serve", "admin"])
        let version = try await BioAuthProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(String(decoding: version.stdout, as: UTF8.self) == BioAuthRelease.version + "\n")
    }

    @Test("bioauth-dev --help lists demo, bench and the configuration table")
    func developerBinary() async throws {
        #expect(try await Self.subcommands(.developerTool) == ["demo", "bench", "configuration-table"])
    }
}
