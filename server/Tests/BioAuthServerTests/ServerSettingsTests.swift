import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// The settings of `bioauth serve` are declared once (``ServerSetting``): the argument reader, the
/// resolver, `--help` and docs/CONFIGURATION.md all read the same declarations, so none can drift.
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
            #expect(
                try ServerConfiguration.resolve(flags: [setting.flag: low], environment: [setting.variable: high]).asGiven(setting) == low,
                "\(setting.flag)"
            )
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

    @Test("docs/CONFIGURATION.md's table is the one the declarations make")
    func configurationDocumentMatches() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/CONFIGURATION.md"), encoding: .utf8)
        let begin = "<!-- settings table: made by `bioauth-dev configuration-table --update docs/CONFIGURATION.md` -->\n"
        let table = try #require(document.components(separatedBy: begin).last?.components(separatedBy: "<!-- end of settings table -->").first)
        #expect(document.contains(begin))
        #expect(
            table == ServerSetting.markdownTable(),
            "run: swift run --package-path server bioauth-dev configuration-table --update docs/CONFIGURATION.md"
        )
    }

    @Test("serve's arguments: --name value, --name=value, a switch alone, a list repeated; anything else is refused")
    func argumentsAreRead() throws {
        #expect(
            try ServerSetting.flags(from: ["--port", "9000", "--host=0.0.0.0", "--trust-forwarded-for"])
                == ["port": "9000", "host": "0.0.0.0", "trust-forwarded-for": "true"]
        )
        #expect(
            try ServerSetting.flags(from: ["--webauthn-origin", "https://a.example", "--webauthn-origin=https://b.example"])
                == ["webauthn-origin": "https://a.example,https://b.example"]
        )
        #expect(try ServerSetting.flags(from: ["--port", "1", "--port", "2"]) == ["port": "2"])
        #expect(try ServerSetting.flags(from: ["--port="]) == ["port": ""])
        for (arguments, message) in [
            (["--colour", "red"], "--colour is not an option of this command (see --help)."),
            (["--port"], "--port needs a value."),
            (["8080"], "8080 is not an option; options are --name value."),
        ] {
            #expect(throws: SettingError.self) { try ServerSetting.flags(from: arguments) }
            do { _ = try ServerSetting.flags(from: arguments) } catch { #expect(error.description == message) }
        }
    }

    @Test("bioauth serve refuses an unknown option before it opens anything, naming it")
    func serveRefusesUnknownOptions() async throws {
        let run = try await BioAuthProcess.run(["serve", "--colour", "red"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--colour is not an option"), "\(run.stderr)")
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
        case "key-attestation": return ("require", "prefer")
        case "confirmation-pin": return ("allow", "deny")
        case "android-require-strongbox", "allow-unattested-passkeys", "step-up-needs-verified-key": return ("true", "false")
        case "android-boot": return ("self-signed", "any")
        case "android-allowed-app":
            return (
                "com.example.bank:" + String(repeating: "ab", count: 32),
                "com.example.a:" + String(repeating: "01", count: 32) + ",com.example.b:" + String(repeating: "02", count: 32)
            )
        case "app-attest-app-id": return ("ABCDE12345.com.example.bank", "ABCDE12345.com.example.a,VWXYZ67890.com.example.b")
        case "app-attest-environment": return ("development", "production")
        case "issuer": return ("https://auth.bank.example", "http://localhost:8080")
        case "access-token-audience": return ("https://api.bank.example", "payments,https://api.bank.example")
        case "access-token-algorithm": return ("EdDSA", "ES256")
        default: return ("first.example", "second.example")
        }
    }
}

extension ServerConfiguration {
    /// A setting's value here, as its flag gives it.
    func asGiven(_ setting: ServerSetting) -> String? { setting.value(self) }
}
