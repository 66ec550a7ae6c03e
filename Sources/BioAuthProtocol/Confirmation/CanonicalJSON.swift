import Foundation

/// RFC 8785 (JSON Canonicalization Scheme) for what confirmations need: one object whose members
/// are all strings.
enum CanonicalJSON {
    /// `{"name":"value",…}` with members sorted by name as UTF-16 code units (RFC 8785 §3.2.3),
    /// no whitespace, UTF-8.
    static func object(_ members: [(String, String)]) -> Data {
        let sorted = members.sorted { Array($0.0.utf16).lexicographicallyPrecedes(Array($1.0.utf16)) }
        var text = "{"
        for (index, (name, value)) in sorted.enumerated() {
            if index > 0 { text += "," }
            text += string(name) + ":" + string(value)
        }
        text += "}"
        return Data(text.utf8)
    }

    /// A JSON string as RFC 8785 §3.2.2.2 writes it (ECMAScript's `JSON.stringify`): `"` and `\`
    /// escaped, the short escapes `\b \t \n \f \r`, other controls below U+0020 as `\u00xx` in
    /// lowercase hex, everything else as itself.
    static func string(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{08}": text += "\\b"
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            case "\u{0C}": text += "\\f"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
