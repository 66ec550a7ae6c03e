import Foundation

/// A JSON value of a JOSE header, claim set or key: written by hand, members in the order given,
/// so that a token costs no encoder and a key's thumbprint input (RFC 7638) is exact.
enum JOSEJSON: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case array([JOSEJSON])
    case object([(String, JOSEJSON)])

    static func == (lhs: JOSEJSON, rhs: JOSEJSON) -> Bool { lhs.text == rhs.text }

    /// The value as compact JSON text.
    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The value's UTF-8 bytes.
    var bytes: Data { Data(text.utf8) }

    private func write(to out: inout String) {
        switch self {
        case .string(let string): Self.quote(string, to: &out)
        case .integer(let integer): out += String(integer)
        case .bool(let bool): out += bool ? "true" : "false"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// `string` as a JSON string: quotes, backslashes and control characters escaped.
    private static func quote(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
