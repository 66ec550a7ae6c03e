import Foundation
import Testing

/// BioAuthKit ships a privacy manifest an app's App Store review reads; it must stay a valid
/// property list that declares no tracking, and it must ship with the SDK.
@Suite("The SDK's privacy manifest")
struct PrivacyManifestTests {
    @Test("PrivacyInfo.xcprivacy is a property list: no tracking, no tracking domains, no collected data, no required-reason API")
    func manifest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/BioAuthKit/PrivacyInfo.xcprivacy"))
        let manifest = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        for key in ["NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"] {
            #expect((manifest[key] as? [Any])?.isEmpty == true, "\(key)")
        }
        // Every API Apple asks a reason for, none of which what an app links calls (a new use needs
        // its reason in the manifest).
        let sources = try ["Sources/BioAuthKit", "Sources/BioAuthProtocol"].flatMap { folder in
            let path = root.appendingPathComponent(folder)
            return try FileManager.default.subpathsOfDirectory(atPath: path.path).filter { $0.hasSuffix(".swift") }
                .map { try String(contentsOf: path.appendingPathComponent($0), encoding: .utf8) }
        }.joined()
        for api in [
            "UserDefaults", "systemUptime", "mach_absolute_time", "creationDate", "modificationDate", "volumeAvailableCapacity", "activeInputModes",
        ] {
            #expect(!sources.contains(api), "the SDK calls \(api): declare its reason in PrivacyInfo.xcprivacy")
        }
    }
}
