import Foundation
import Yams

/// `openapi.yaml`, read as data, checking real answers against it: every response the test suite
/// receives must have a documented status for its operation and a body that matches the
/// documented schema. So the server and the document cannot drift apart unnoticed.
struct OpenAPIContract: Sendable {
    /// One documented operation.
    struct Operation: Sendable {
        var method: String
        var path: String
        var operationID: String
        /// Documented statuses ("200", "401", …).
        var statuses: Set<String>
    }

    static let shared: OpenAPIContract = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/BioAuthServer/Resources/openapi.yaml")
        let text = try! String(contentsOf: url, encoding: .utf8)
        return OpenAPIContract(document: UncheckedDocument(value: try! Yams.load(yaml: text) as! [String: Any]))
    }()

    /// The parsed YAML; only read after loading.
    struct UncheckedDocument: @unchecked Sendable {
        let value: [String: Any]
    }

    let document: UncheckedDocument

    var operations: [Operation] {
        let paths = document.value["paths"] as! [String: Any]
        return paths.flatMap { path, item -> [Operation] in
            (item as! [String: Any]).compactMap { method, operation -> Operation? in
                guard let operation = operation as? [String: Any], let id = operation["operationId"] as? String else { return nil }
                let responses = operation["responses"] as? [String: Any] ?? [:]
                return Operation(method: method.uppercased(), path: path, operationID: id, statuses: Set(responses.keys.map { "\($0)" }))
            }
        }
    }

    /// The documented operation a concrete request hits, preferring literal segments over
    /// parameters (`/v1/sessions/current` over `/v1/sessions/{id}`).
    func operation(method: String, path: String) -> Operation? {
        let segments = path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
        return
            operations
            .filter { $0.method == method }
            .compactMap { operation -> (Operation, Int)? in
                let template = operation.path.split(separator: "/")
                guard template.count == segments.count else { return nil }
                var literals = 0
                for (part, segment) in zip(template, segments) {
                    if part.hasPrefix("{") { continue }
                    guard part == segment else { return nil }
                    literals += 1
                }
                return (operation, literals)
            }
            .max { $0.1 < $1.1 }?.0
    }

    /// What is wrong with an answer, by the document; empty when it conforms.
    func problems(method: String, path: String, status: Int, headers: [String: String], body: Data) -> [String] {
        guard let operation = operation(method: method, path: path) else {
            // Not a documented operation: only the shared error answers are allowed.
            guard [404, 405].contains(status) else { return ["\(method) \(path) is not documented but answered \(status)"] }
            return validateJSON(body, against: ["$ref": "#/components/schemas/Error"], at: "\(method) \(path) \(status)")
        }
        let context = "\(operation.operationID) \(status)"
        let responses = resolve((documentOperation(operation)["responses"] as? [String: Any]) ?? [:])
        guard var response = responses["\(status)"] as? [String: Any] else {
            return ["\(context): status \(status) is not documented (documented: \(operation.statuses.sorted()))"]
        }
        response = resolve(response)
        var problems: [String] = []
        if let documentedHeaders = response["headers"] as? [String: Any] {
            for name in documentedHeaders.keys where headers[name.lowercased()] == nil {
                problems.append("\(context): documented header \(name) missing")
            }
        }
        guard let content = response["content"] as? [String: Any] else {
            if !body.isEmpty { problems.append("\(context): documented without a body but has \(body.count) bytes") }
            return problems
        }
        if let json = content["application/json"] as? [String: Any], let schema = json["schema"] as? [String: Any] {
            problems += validateJSON(body, against: schema, at: context)
        }
        return problems
    }

    private func documentOperation(_ operation: Operation) -> [String: Any] {
        let paths = document.value["paths"] as! [String: Any]
        return (paths[operation.path] as! [String: Any])[operation.method.lowercased()] as! [String: Any]
    }

    private func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let reference = node["$ref"] as? String else { return node }
        var current: Any = document.value
        for part in reference.dropFirst(2).split(separator: "/") {
            current = (current as! [String: Any])[String(part)]!
        }
        return resolve(current as! [String: Any])
    }

    private func validateJSON(_ body: Data, against schema: [String: Any], at context: String) -> [String] {
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return ["\(context): body is not JSON"]
        }
        return validate(value, against: schema, at: context)
    }

    /// A JSON Schema subset: $ref, allOf, type, enum, const, required, properties,
    /// additionalProperties: false, items, minItems, maxItems, pattern, lengths, bounds, format date-time.
    private func validate(_ value: Any, against node: [String: Any], at path: String) -> [String] {
        let schema = resolve(node)
        var problems: [String] = []
        for part in schema["allOf"] as? [[String: Any]] ?? [] {
            problems += validate(value, against: part, at: path)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [types as! String]
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                return problems + ["\(path): \(value) is not of type \(allowed)"]
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            problems.append("\(path): \(value) not in enum \(options)")
        }
        if let constant = schema["const"] {
            let same =
                (constant as? Bool).map { flag in Self.matches(value, type: "boolean") && (value as? Bool) == flag } ?? ("\(constant)" == "\(value)")
            if !same { problems.append("\(path): \(value) is not \(constant)") }
        }
        if let string = value as? String {
            let length = string.unicodeScalars.count
            if let min = schema["minLength"] as? Int, length < min { problems.append("\(path): shorter than \(min)") }
            if let max = schema["maxLength"] as? Int, length > max { problems.append("\(path): longer than \(max)") }
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path): \"\(string)\" does not match \(pattern)")
            }
            if schema["format"] as? String == "date-time", !Self.isRFC3339(string) {
                problems.append("\(path): \"\(string)\" is not an RFC 3339 date-time")
            }
        }
        if let number = value as? Int, !(value is Bool) {
            if let min = schema["minimum"] as? Int, number < min { problems.append("\(path): below \(min)") }
            if let max = schema["maximum"] as? Int, number > max { problems.append("\(path): above \(max)") }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required \(key)")
            }
            for (key, member) in object {
                if let propertySchema = properties[key] as? [String: Any] {
                    problems += validate(member, against: propertySchema, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): undocumented property \(key)")
                }
            }
        }
        if let array = value as? [Any] {
            if let max = schema["maxItems"] as? Int, array.count > max { problems.append("\(path): more than \(max) items") }
            if let min = schema["minItems"] as? Int, array.count < min { problems.append("\(path): fewer than \(min) items") }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() {
                    problems += validate(item, against: items, at: "\(path)[\(index)]")
                }
            }
        }
        return problems
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "integer": (value as? NSNumber).map { $0.doubleValue.rounded() == $0.doubleValue } ?? false
        case "number": value is NSNumber
        case "boolean": value is Bool
        case "null": value is NSNull
        default: false
        }
    }

    private static func isRFC3339(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil
    }
}
