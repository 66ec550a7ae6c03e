/// Text every database can store: PostgreSQL's `text` type refuses U+0000 (SQLite would keep it,
/// and a name or id with a NUL in it is never meant). Checked once, where requests come in, so no
/// handler ever passes such a string to a query.
enum StorableText {
    /// Whether a JSON document (as sent, before decoding) holds a NUL character in any string:
    /// the escape `\u0000` (raw control bytes are invalid JSON and refused by the decoder). A
    /// backslash escapes the next character, so `\\u0000` is a backslash and "u0000", not a NUL.
    static func jsonContainsNUL(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "\\") else { continue }
            guard let escaped = iterator.next() else { return false }
            guard escaped == UInt8(ascii: "u") else { continue }
            var digits: [UInt8] = []
            while digits.count < 4, let digit = iterator.next() { digits.append(digit) }
            if digits == Array("0000".utf8) { return true }
        }
        return false
    }

    /// Whether a path parameter can be stored and looked up: no NUL, whether sent raw or as `%00`.
    static func isStorable(pathParameter value: Substring) -> Bool {
        !value.contains("\u{0}") && value.range(of: "%00") == nil
    }
}
