@testable import BioAuthServer
import BioAuthTesting
import Foundation
import Testing

/// The settings of `bioauth serve` are declared once (``ServerSetting``): the resolver, `--help`
/// and docs/DEPLOYMENT.md all read the same declarations, so none can drift from the others.
@Suite("Settings declared once")
struct ServerSettingsTests {
    @Test("every variable is BIOAUTH_ and the flag in capitals, and no flag or variable is declared twice")
    func namesFollowTheRule() {
        for setting in ServerSetting.all {
            #expect(setting.variable == "BIOAUTH_" + setting.flag.uppercased().replacingOccurrences(of: "-", with: "_"))
        }
        #expect(Set(ServerSetting.all.map(\.flag)).count == ServerSetting.all.count)
    }

    @Test("a flag wins over its variable, the variable over the default, for every setting")
    func precedence() throws {
        for setting in ServerSetting.all {
            let (low, high) = try #require(Self.twoValues(of: setting), "\(setting.flag)")
            #expect(try ServerConfiguration.resolve(flags: [:], environment: [:]).asGiven(setting) == setting.value(ServerConfiguration()))
            #expect(try ServerConfiguration.resolve(flags: [:], environment: [setting.variable: high]).asGiven(setting) == high, "\(setting.flag)")
            #expect(try ServerConfiguration.resolve(flags: [setting.flag: low], environment: [setting.variable: high]).asGiven(setting) == low,
                    "\(setting.flag)")
        }
    }

    @Test("every range is enforced at both ends, from the flag and from the variable")
    func rangesAreEnforced() throws {
        for setting in ServerSetting.all {
            guard let range = setting.range else { continue }
            for inside in [range.lowerBound, range.upperBound] {
                #expect(try ServerConfiguration.resolve(flags: [setting.flag: String(inside)], environment: [:]).asGiven(setting) == String(inside))
            }
            for outside in [range.lowerBound - 1, range.upperBound + 1] {
                #expect(throws: SettingError.self, "--\(setting.flag) \(outside)") {
                    try ServerConfiguration.resolve(flags: [setting.flag: String(outside)], environment: [:])
                }
                #expect(throws: SettingError.self, "\(setting.variable)=\(outside)") {
                    try ServerConfiguration.resolve(flags: [:], environment: [setting.variable: String(outside)])
                }
            }
        }
    }

    @Test("an unusable value names the flag or the variable it came from")
    func messages() {
        #expect(Self.message(flags: ["port": "70000"]) == "--port must be 0...65535.")
        #expect(Self.message(flags: ["session-minutes": "2"]) == "--session-minutes must be 5...43200 minutes.")
        #expect(Self.message(environment: ["BIOAUTH_PORT": "eighty"]) == "BIOAUTH_PORT=eighty is not valid.")
        #expect(Self.message(environment: ["BIOAUTH_LOG_LEVEL": "loud"]) == "BIOAUTH_LOG_LEVEL=loud is not valid.")
        #expect(Self.message(environment: ["BIOAUTH_TRUST_FORWARDED_FOR": "maybe"]) == "BIOAUTH_TRUST_FORWARDED_FOR=maybe is not valid.")
        #expect(Self.message(flags: ["relying-party": ""]) == "--relying-party must be valid.")
    }

    @Test("bioauth serve --help shows every setting's flag, variable, range and default")
    func helpShowsEveryDeclaration() async throws {
        let help = try await BioAuthProcess.run(["serve", "--help"])
        // argument-parser wraps lines; compare with the white space folded.
        let text = String(decoding: help.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in ServerSetting.all {
            #expect(text.contains("--\(setting.flag)"))
            #expect(text.contains(setting.help), "\(setting.flag): \(setting.help)")
        }
    }

    @Test("the README's configuration table lists exactly the declared settings, with their variables, defaults and ranges")
    func readmeTableMatches() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // | `--flag` | `VARIABLE` | default | range | meaning |: the first four cells, backticks dropped.
        let rows = readme.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
        } }.filter { $0.count > 5 && $0[2].hasPrefix("BIOAUTH_") }
        let documented = rows.map { $0[1...4].joined(separator: " | ") }
        let declared = ServerSetting.all.map(\.tableCells)
        #expect(documented.sorted() == declared.sorted(), "declared:\n\(declared.joined(separator: "\n"))")
    }

    private static func message(flags: [String: String] = [:], environment: [String: String] = [:]) -> String? {
        do {
            _ = try ServerConfiguration.resolve(flags: flags, environment: environment)
            return nil
        } catch {
            return error.description
        }
    }

    /// Two valid values of a setting other than its default, as text.
    private static func twoValues(of setting: ServerSetting) -> (String, String)? {
        if let range = setting.range { return (String(range.lowerBound), String(range.upperBound)) }
        switch setting.flag {
        case "trust-forwarded-for": return ("true", "false")
        case "log-level": return ("debug", "error")
        case "webauthn-origin", "webauthn-top-origin": return ("https://first.example", "https://second.example,http://localhost:8080")
        case "webauthn-user-verification": return ("preferred", "required")
        case "webauthn-attestation": return ("direct", "none")
        default: return ("first.example", "second.example")
        }
    }
}

extension ServerSetting {
    /// The README table's flag, variable, default and range cells for this setting.
    var tableCells: String {
        let range = range.map { "\($0.lowerBound)...\($0.upperBound)" + (unit.map { " \($0)" } ?? "") } ?? ""
        return "--\(flag) | \(variable) | \(defaultText) | \(range)"
    }
}

extension ServerConfiguration {
    /// A setting's value here, as its flag gives it.
    func asGiven(_ setting: ServerSetting) -> String? { setting.value(self) }
}
