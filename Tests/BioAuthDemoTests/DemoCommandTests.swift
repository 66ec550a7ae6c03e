import BioAuthDemo
import Foundation
import Testing

/// `bioauth demo` as a newcomer runs it: the real binary.
@Suite("bioauth demo")
struct DemoCommandTests {
    /// The `bioauth` binary beside the test bundle.
    static var binary: URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("bioauth") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs the binary to completion; returns its status and output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        async let stdout = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        async let stderr = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }.value
        let (out, err) = await (stdout, stderr)
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    @Test("`bioauth demo --json` exits 0 and reports every property passed")
    func jsonRunPasses() async throws {
        let (status, stdout, stderr) = try await Self.run(["demo", "--json"])
        #expect(status == 0, "stderr: \(stderr)")
        let report = try JSONDecoder().decode(DemoReport.self, from: stdout)
        let object = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        #expect(object["all_passed"] as? Bool == true)
        #expect(Set(report.properties.map(\.property)) == Set(SecurityProperty.allCases))
        #expect(report.properties.allSatisfy { $0.passed })
        #expect(report.sections.filter { $0.kind == .step }.count == 10)
    }

    @Test("plain text when not a terminal: no ANSI escapes, ends with the property table")
    func plainTextWithoutTerminal() async throws {
        let (status, stdout, _) = try await Self.run(["demo"])
        let text = String(decoding: stdout, as: UTF8.self)
        #expect(status == 0)
        #expect(!text.contains("\u{1B}["))
        #expect(text.contains("Security properties"))
        #expect(text.contains("\(SecurityProperty.allCases.count) passed, 0 failed, 0 skipped"))
    }
}
