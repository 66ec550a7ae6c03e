import BioAuthProtocol
import Foundation
import Testing

/// The version has one home, `BioAuthRelease.version`; the changelog and the Android SDK's
/// version catalog name it too, and cannot read Swift, so this test holds them to it.
@Suite("The release version")
struct ReleaseVersionTests {
    /// The repository's root folder.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("CHANGELOG.md's newest entry is BioAuthRelease.version, a semantic version")
    func changelogNamesTheVersion() throws {
        let root = Self.root
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(newest.dropFirst(3).split(separator: " ").first.map(String.init) == BioAuthRelease.version)
        let parts = BioAuthRelease.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { UInt($0) != nil })
    }

    @Test("the Android SDK publishes BioAuthRelease.version (gradle/libs.versions.toml's bioauthkit)")
    func androidPublishesTheVersion() throws {
        let catalog = try String(contentsOf: Self.root.appendingPathComponent("android/gradle/libs.versions.toml"), encoding: .utf8)
        let line = try #require(catalog.split(separator: "\n").first { $0.hasPrefix("bioauthkit = ") })
        #expect(line == "bioauthkit = \"\(BioAuthRelease.version)\"")
    }
}
