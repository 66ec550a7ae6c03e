import BioAuthProtocol
import Foundation
import Testing

/// The version has one home, `BioAuthRelease.version`; the changelog names it too, and cannot
/// read Swift, so this test holds the two together.
@Suite("The release version")
struct ReleaseVersionTests {
    @Test("CHANGELOG.md's newest entry is BioAuthRelease.version, a semantic version")
    func changelogNamesTheVersion() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(newest.dropFirst(3).split(separator: " ").first.map(String.init) == BioAuthRelease.version)
        let parts = BioAuthRelease.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { UInt($0) != nil })
    }
}
