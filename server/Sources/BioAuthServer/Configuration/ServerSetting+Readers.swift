extension ServerSetting {
    /// The flags in `arguments`, as text by flag: `--port 8080` or `--port=8080`; a switch alone
    /// (`--trust-forwarded-for`) is `true`; a repeatable setting's values are joined with commas,
    /// and for any other the last one given wins.
    package static func flags(from arguments: [String], settings: [ServerSetting] = all) throws(SettingError) -> [String: String] {
        let byFlag = Dictionary(uniqueKeysWithValues: settings.map { ($0.flag, $0) })
        var flags: [String: String] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { throw SettingError("\(argument) is not an option; options are --name value.") }
            let parts = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            guard let setting = byFlag[name] else { throw SettingError("--\(name) is not an option of this command (see --help).") }
            let value: String
            if let inline {
                value = inline
            } else if setting.isSwitch {
                value = "true"
            } else if let next = remaining.popFirst() {
                value = next
            } else {
                throw SettingError("--\(name) needs a value.")
            }
            flags[name] = setting.isRepeatable ? flags[name].map { "\($0),\(value)" } ?? value : value
        }
        return flags
    }

    /// `--help`'s list of these settings: each flag, then its help, indented and wrapped to fit
    /// 80 columns (so that argument-parser, which wraps at 80, leaves it as it is).
    package static func optionsHelp(_ settings: [ServerSetting] = all) -> String {
        settings.map { setting in
            var lines = ["  --\(setting.flag)\(setting.isSwitch ? "" : " <value>")\(setting.isRepeatable ? " ..." : "")"]
            for word in setting.help.split(separator: " ") {
                if lines.count > 1, lines[lines.count - 1].count + 1 + word.count <= 78 {
                    lines[lines.count - 1] += " \(word)"
                } else {
                    lines.append("        \(word)")
                }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The table of docs/CONFIGURATION.md: flag, variable, default, range and meaning, a row each.
    package static func markdownTable(_ settings: [ServerSetting] = all) -> String {
        let rows = settings.map { setting in
            let defaultCell = setting.defaultText.contains(" ") ? setting.defaultText : "`\(setting.defaultText)`"
            return "| `--\(setting.flag)` | `\(setting.variable)` | \(defaultCell) | \(setting.rangeText ?? "") | \(setting.summary) |"
        }
        return (["| flag | variable | default | range | meaning |", "|---|---|---|---|---|"] + rows).joined(separator: "\n") + "\n"
    }
}
