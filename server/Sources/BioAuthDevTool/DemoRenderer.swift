import BioAuthDemo
import Foundation

/// Prints the demo for people: ANSI colours on a terminal, plain text otherwise.
struct DemoRenderer {
    /// Whether to use ANSI colours.
    let colors: Bool
    /// Text width for the explanations.
    var width = 96

    /// Colours when standard output is a terminal (and `NO_COLOR` is not set).
    static func forStandardOutput() -> DemoRenderer {
        let environment = ProcessInfo.processInfo.environment
        return DemoRenderer(colors: isatty(1) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
    }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The opening lines.
    func header(mode: String, server: String) -> String {
        """
        \(paint("BioAuth demo", "1")): password, biometric and PIN sign-in on a simulated phone, then the attacks.
        Server: \(server) (\(mode)). Secrets are shown abbreviated (bat_s4j2…xgeM), passwords and PINs as ••••••.


        """
    }

    /// One step or attack.
    func render(_ section: DemoSection) -> String {
        var lines: [String] = []
        let heading: String
        switch section.kind {
        case .step: heading = paint("━━ Step \(section.number)/10 · \(section.title)", "1;36")
        case .attack: heading = paint("━━ Attack \(section.number) · \(section.title)", "1;35")
        case .antiPattern: heading = paint("━━ \(section.title)", "1;33")
        }
        lines.append(heading)
        lines += wrap(section.explanation, indent: "   ")
        for event in section.events { lines.append("   • \(event)") }
        for exchange in section.wire {
            let bearer = exchange.bearer.map { "  [Bearer \($0)]" } ?? ""
            lines.append(paint("   → \(exchange.method) \(exchange.path)\(bearer)\(exchange.request.map { "  \($0)" } ?? "")", "2"))
            lines.append(paint("   ← \(exchange.status)\(exchange.response.map { "  \($0)" } ?? "")", "2"))
        }
        for result in section.properties { lines.append("   \(badge(result.status)) \(result.statement)") }
        lines.append("")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The closing table.
    func table(_ properties: [PropertyResult]) -> String {
        var lines = [paint("Security properties", "1")]
        for result in properties {
            lines.append("  \(badge(result.status))  \(result.statement)")
            lines.append(paint("        \(result.detail)", "2"))
        }
        let count = { (status: PropertyResult.Status) in properties.filter { $0.status == status }.count }
        lines.append("")
        lines.append("\(count(.pass)) passed, \(count(.fail)) failed, \(count(.skip)) skipped")
        return lines.joined(separator: "\n") + "\n"
    }

    private func badge(_ status: PropertyResult.Status) -> String {
        switch status {
        case .pass: paint("PASS", "1;32")
        case .fail: paint("FAIL", "1;31")
        case .skip: paint("SKIP", "1;33")
        }
    }

    private func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines
    }
}
