import Foundation
import Logging

/// One setting of `bioauth serve`, declared once: its flag, its environment variable, its range
/// and unit, and where its value goes in ``ServerConfiguration``. The default is what
/// `ServerConfiguration()` holds, so it too is written once. `serve --help`, the resolver
/// (``ServerConfiguration/resolve(flags:environment:settings:)``) and the docs table all read these.
package struct ServerSetting: Sendable {
    /// The long flag, without its dashes: `metrics-port`.
    package let flag: String
    /// What it sets, in a few words.
    package let summary: String
    /// The values it accepts, where it is a number.
    package let range: ClosedRange<Int>?
    /// What a number counts (`seconds`, `minutes`, `days`, `bytes`), where it is not plain.
    package let unit: String?
    /// Whether it is a switch (`--trust-forwarded-for`, no value), not an option.
    package let isSwitch: Bool
    /// Whether it may be given more than once (a list: the values are joined with commas).
    package let isRepeatable: Bool
    /// The default as `--help` shows it: what `ServerConfiguration()` holds, unless said otherwise.
    package var defaultText: String { fixedDefaultText ?? value(ServerConfiguration()) ?? "none" }
    private let fixedDefaultText: String?
    /// The setting's value in a configuration, as the flag would give it (`nil` when unset).
    package let value: @Sendable (ServerConfiguration) -> String?
    /// Writes a value given as text into a configuration.
    let write: @Sendable (inout ServerConfiguration, String) -> Outcome

    /// What writing a value came to.
    enum Outcome { case written, notAValue, outOfRange }

    /// The environment variable: `BIOAUTH_` and the flag in capitals, `-` as `_`.
    package var variable: String { "BIOAUTH_" + flag.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The values it accepts, as `--help`, the docs and its errors say them: `5...43200 minutes`.
    package var rangeText: String? {
        range.map { "\($0.lowerBound)...\($0.upperBound)" + (unit.map { " \($0)" } ?? "") }
    }

    /// `--help`'s line: the summary, the range, the variable and the default.
    package var help: String {
        var text = summary
        if let rangeText { text += ", \(rangeText)" }
        return text + ". [env: \(variable)\(isSwitch ? "=true" : "")] (default: \(defaultText))"
    }

    /// Checks `text` (from the flag when `fromFlag`, else from the variable) and writes it.
    func apply(_ text: String, fromFlag: Bool, to configuration: inout ServerConfiguration) throws(SettingError) {
        switch write(&configuration, text) {
        case .written: return
        case .notAValue where !fromFlag: throw SettingError("\(variable)=\(text) is not valid.")
        case .notAValue: throw SettingError("--\(flag) \(text) is not valid.")
        case .outOfRange:
            throw SettingError("--\(flag) must be \(rangeText ?? "valid").")
        }
    }

    init(
        flag: String,
        summary: String,
        range: ClosedRange<Int>? = nil,
        unit: String? = nil,
        isSwitch: Bool = false,
        isRepeatable: Bool = false,
        defaultText: String? = nil,
        value: @escaping @Sendable (ServerConfiguration) -> String?,
        write: @escaping @Sendable (inout ServerConfiguration, String) -> Outcome
    ) {
        self.flag = flag
        self.summary = summary
        self.range = range
        self.unit = unit
        self.isSwitch = isSwitch
        self.isRepeatable = isRepeatable
        self.fixedDefaultText = defaultText
        self.value = value
        self.write = write
    }

    /// A setting with a fixed set of values, parsed once here into its type: anything else is refused.
    static func choice<Value: RawRepresentable & Sendable>(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, Value> & Sendable,
        _ summary: String
    ) -> ServerSetting where Value.RawValue == String {
        ServerSetting(flag: flag, summary: summary, value: { $0[keyPath: keyPath].rawValue }) { configuration, text in
            guard let value = Value(rawValue: text) else { return .notAValue }
            configuration[keyPath: keyPath] = value
            return .written
        }
    }

    /// A text setting; `isValid` refuses what the server cannot use.
    static func text(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, String> & Sendable,
        _ summary: String,
        isValid: @escaping @Sendable (String) -> Bool = { _ in true }
    ) -> ServerSetting {
        ServerSetting(flag: flag, summary: summary, value: { $0[keyPath: keyPath] }) { configuration, text in
            guard isValid(text) else { return .outOfRange }
            configuration[keyPath: keyPath] = text
            return .written
        }
    }

    /// A switch: present (or `1`, `true`, `yes`) sets it, `0`, `false`, `no` or empty clears it.
    static func toggle(_ flag: String, _ keyPath: WritableKeyPath<ServerConfiguration, Bool> & Sendable, _ summary: String) -> ServerSetting {
        ServerSetting(flag: flag, summary: summary, isSwitch: true, value: { String($0[keyPath: keyPath]) }) { configuration, text in
            switch text.lowercased() {
            case "1", "true", "yes": configuration[keyPath: keyPath] = true
            case "0", "false", "no", "": configuration[keyPath: keyPath] = false
            default: return .notAValue
            }
            return .written
        }
    }

    /// A file's path, read (and checked) at start.
    static func file(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, String?> & Sendable,
        _ summary: String,
        defaultText: String? = nil
    ) -> ServerSetting {
        ServerSetting(flag: flag, summary: summary, defaultText: defaultText, value: { $0[keyPath: keyPath] }) { configuration, text in
            configuration[keyPath: keyPath] = text
            return .written
        }
    }

    /// A list given by repeating the flag (joined with commas on the way in) or as a
    /// comma-separated variable; each item must pass `isValid`.
    static func list(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, [String]> & Sendable,
        _ summary: String,
        defaultText: String = "none",
        isValid: @escaping @Sendable (String) -> Bool
    ) -> ServerSetting {
        ServerSetting(
            flag: flag,
            summary: summary,
            isRepeatable: true,
            defaultText: defaultText,
            value: { $0[keyPath: keyPath].isEmpty ? nil : $0[keyPath: keyPath].joined(separator: ",") }
        ) { configuration, text in
            let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard items.allSatisfy(isValid) else { return .notAValue }
            configuration[keyPath: keyPath] = items
            return .written
        }
    }

    /// A whole number stored as `Value` (an `Int`, a bcrypt cost, a `Duration` of `unitSeconds`).
    static func number<Value>(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, Value> & Sendable,
        _ range: ClosedRange<Int>,
        unit: String? = nil,
        _ summary: String,
        store: @escaping @Sendable (Int) -> Value,
        show: @escaping @Sendable (Value) -> Int
    ) -> ServerSetting {
        ServerSetting(
            flag: flag,
            summary: summary,
            range: range,
            unit: unit,
            value: { String(show($0[keyPath: keyPath])) }
        ) { configuration, text in
            guard let number = Int(text) else { return .notAValue }
            guard range.contains(number) else { return .outOfRange }
            configuration[keyPath: keyPath] = store(number)
            return .written
        }
    }

    /// A whole number.
    static func integer(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, Int> & Sendable,
        _ range: ClosedRange<Int>,
        unit: String? = nil,
        _ summary: String
    ) -> ServerSetting {
        number(flag, keyPath, range, unit: unit, summary, store: { $0 }, show: { $0 })
    }

    /// A duration given as a whole number of seconds, minutes or days.
    static func duration(
        _ flag: String,
        _ keyPath: WritableKeyPath<ServerConfiguration, Duration> & Sendable,
        _ range: ClosedRange<Int>,
        in unit: TimeUnit,
        _ summary: String
    ) -> ServerSetting {
        number(
            flag,
            keyPath,
            range,
            unit: unit == .seconds ? nil : "\(unit)",
            summary,
            store: { .seconds($0 * unit.seconds) },
            show: { Int($0.components.seconds) / unit.seconds }
        )
    }

    /// The units a duration setting takes.
    enum TimeUnit: String, CustomStringConvertible {
        case seconds, minutes, days
        var seconds: Int { self == .seconds ? 1 : self == .minutes ? 60 : 86_400 }
        var description: String { rawValue }
    }
}

/// A setting's value that the server cannot use: the message names the flag or the variable.
package struct SettingError: Error, CustomStringConvertible {
    /// `--port must be 0...65535.`, `BIOAUTH_PORT=eighty is not valid.`
    package let description: String
    init(_ description: String) { self.description = description }
}
