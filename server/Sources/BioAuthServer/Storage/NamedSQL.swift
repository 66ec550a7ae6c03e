/// SQL text whose parameters are named (`:now`, `:user_id`), as the tables write their statements
/// and fragments: rendered once to the `$1`, `$2`, … form both databases take, numbered by first
/// appearance (as ``StatementDatabase`` requires for SQLite), with the names in that order so a
/// statement's values are bound by name. PostgreSQL's `::` casts are left alone; no literal in a
/// text holds a colon.
package struct NamedSQL: Sendable {
    /// The text as written, with `:name`.
    package let named: String
    /// The text with `$1`, `$2`, ….
    package let text: String
    /// The parameters' names, `$1`'s first.
    package let names: [String]

    /// Renders `named`.
    package init(_ named: String) {
        var names: [String] = []
        text = Self.replacingNames(in: named) { name in
            if !names.contains(name) { names.append(name) }
            return "$\(names.firstIndex(of: name)! + 1)"
        }
        self.named = named
        self.names = names
    }

    /// The text as written, each `:name` replaced by `expressions[name]` (an SQL expression): for a
    /// tool that binds its own way (pgbench).
    package func substituting(_ expressions: [String: String]) -> String {
        Self.replacingNames(in: named) { name in
            guard let expression = expressions[name] else { preconditionFailure(":\(name) has no expression") }
            return expression
        }
    }

    /// `named` with each `:name` replaced by what `replacement` gives for it.
    private static func replacingNames(in named: String, _ replacement: (String) -> String) -> String {
        var text = ""
        var rest = named[...]
        while let colon = rest.firstIndex(of: ":") {
            text += rest[..<colon]
            let after = rest.index(after: colon)
            if after < rest.endIndex, rest[after] == ":" {  // a cast, `::bigint`
                text += "::"
                rest = rest[rest.index(after: after)...]
                continue
            }
            let name = rest[after...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else {
                text += ":"
                rest = rest[after...]
                continue
            }
            text += replacement(String(name))
            rest = rest[name.endIndex...]
        }
        return text + rest
    }

    /// The values in `$n` order, each from `bound` by its name: every name must be bound (`.null`
    /// for none).
    package func values(_ bound: [String: SQLValue]) -> [SQLValue] {
        names.map { name in
            guard let value = bound[name] else { preconditionFailure(":\(name) is not bound") }
            return value
        }
    }

    /// The parameters' types in `$n` order, each from `types` by its name: every name must have one.
    package func types(_ types: [String: SQLType]) -> [SQLType] {
        names.map { name in
            guard let type = types[name] else { preconditionFailure(":\(name) has no type") }
            return type
        }
    }
}

extension StatementDatabase {
    /// Runs `statement` with its parameters bound by name and returns every row.
    func rows(_ statement: NamedSQL, _ bound: [String: SQLValue]) async throws -> [StatementRow] {
        try await rows(statement.text, statement.values(bound))
    }
}
