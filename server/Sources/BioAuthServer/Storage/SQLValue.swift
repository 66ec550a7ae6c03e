import BioAuthProtocol
import Foundation

/// A value bound to, or read from, a ``StatementDatabase`` statement: the kinds both databases store.
package enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case null

    /// Text, or `NULL` for `nil`.
    static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// A time as milliseconds since 1970.
    static func time(_ date: Date) -> SQLValue { .integer(date.millisecondsSince1970) }

    /// Bytes from `Data`.
    static func bytes(_ data: Data) -> SQLValue { .bytes(Array(data)) }
}

/// One result row of a ``StatementDatabase`` statement, its values in the statement's column order.
package struct StatementRow: Sendable, Equatable {
    /// The values, by column position.
    var values: [SQLValue]

    /// The text in column `index`.
    func text(_ index: Int) throws -> String {
        guard case .text(let text) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return text
    }

    /// The text in column `index`, or `nil` for `NULL`.
    func optionalText(_ index: Int) throws -> String? {
        value(index) == .null ? nil : try text(index)
    }

    /// The integer in column `index`.
    func integer(_ index: Int) throws -> Int64 {
        guard case .integer(let integer) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return integer
    }

    /// The time (milliseconds since 1970) in column `index`.
    func date(_ index: Int) throws -> Date {
        Date(millisecondsSince1970: try integer(index))
    }

    /// The time in column `index`, or `nil` for `NULL`.
    func optionalDate(_ index: Int) throws -> Date? {
        value(index) == .null ? nil : try date(index)
    }

    /// The bytes in column `index`.
    func bytes(_ index: Int) throws -> Data {
        guard case .bytes(let bytes) = value(index) else { throw CorruptRowError(column: "#\(index)") }
        return Data(bytes)
    }

    /// The string-backed enum in column `index`.
    func enumeration<T: RawRepresentable>(_ index: Int, as _: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try text(index)) else { throw CorruptRowError(column: "#\(index)") }
        return value
    }

    /// The known value of an open vocabulary in column `index`: a value this server does not know
    /// is a corrupt row.
    func enumeration<T: OpenVocabulary>(_ index: Int, as _: T.Type) throws -> T {
        guard let value = T(known: try text(index)) else { throw CorruptRowError(column: "#\(index)") }
        return value
    }

    private func value(_ index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }
}
