import BioAuthKit
import Foundation

/// How the demo shows secrets: never whole.
package enum Redaction {
    /// `bat_s4j2…xgeM`: the first eight and last four characters of anything longer than twelve.
    package static func abbreviate(_ text: String) -> String {
        guard text.count > 12 else { return text }
        return "\(text.prefix(8))…\(text.suffix(4))"
    }

    /// Bytes shown as abbreviated base64url.
    package static func abbreviate(_ data: Data) -> String {
        abbreviate(Base64URL.encode(data))
    }

    /// A URL path with every long segment (an id) abbreviated.
    package static func abbreviatePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { $0.count > 16 ? abbreviate(String($0)) : String($0) }.joined(
            separator: "/"
        )
    }

    /// Keys whose values are never shown, not even abbreviated.
    static let masked: Set<String> = ["password", "pin"]
    /// Keys whose values are plain words, shown whole.
    static let readable: Set<String> = ["username", "label", "message", "code", "reason", "algorithm", "status", "method", "type", "outcome"]

    /// A JSON body in one line: secrets abbreviated, passwords and PINs masked, nested objects
    /// shown as `{…}` (except an `error`), arrays as their length. Not JSON: its size only.
    package static func summarize(_ body: Data?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: body) else { return "(\(body.count) bytes)" }
        return render(object, key: nil, depth: 0)
    }

    private static func render(_ value: Any, key: String?, depth: Int) -> String {
        switch value {
        case let object as [String: Any]:
            if depth > 0 && key != "error" { return "{…}" }
            let fields = object.keys.sorted().map { name in "\"\(name)\":\(render(object[name]!, key: name, depth: depth + 1))" }
            return "{" + fields.joined(separator: ",") + "}"
        case let array as [Any]:
            return array.isEmpty ? "[]" : "[\(array.count) item\(array.count == 1 ? "" : "s")]"
        case let text as String:
            if let key, masked.contains(key) { return "\"••••••\"" }
            if let key, readable.contains(key) || key.hasSuffix("_at") { return "\"\(text)\"" }
            return "\"\(abbreviate(text))\""
        case is NSNull:
            return "null"
        case let number as NSNumber:
            return "\(number)"
        default:
            return "\(value)"
        }
    }
}
