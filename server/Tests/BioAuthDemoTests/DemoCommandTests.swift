import BioAuthDemo
import BioAuthTesting
import Foundation
import Testing

/// `bioauth-dev demo` as a newcomer runs it: the real binary.
@Suite("bioauth-dev demo")
struct DemoCommandTests {
    @Test("`bioauth-dev demo --json` exits 0 and reports every property passed")
    func jsonRunPasses() async throws {
        let (status, stdout, stderr) = try await BioAuthProcess.run(["demo", "--json"], program: .developerTool)
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
        let (status, stdout, _) = try await BioAuthProcess.run(["demo"], program: .developerTool)
        let text = String(decoding: stdout, as: UTF8.self)
        #expect(status == 0)
        #expect(!text.contains("\u{1B}["))
        #expect(text.contains("Security properties"))
        #expect(text.contains("\(SecurityProperty.allCases.count) passed, 0 failed, 0 skipped"))
    }
}
