import BioAuthProtocol
import Foundation
import SQLKit

/// A stored value that no longer parses: the database was changed behind the server's back.
struct CorruptRowError: Error, CustomStringConvertible {
    var column: String
    var description: String { "unexpected value in column \(column)" }
}

extension SQLRow {
    /// A time stored as milliseconds since 1970.
    func decodeDate(column: String) throws -> Date {
        Date(millisecondsSince1970: try decode(column: column, as: Int64.self))
    }

    /// An optional time stored as milliseconds since 1970.
    func decodeOptionalDate(column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(millisecondsSince1970:))
    }

    /// A string-backed enum.
    func decodeEnum<T: RawRepresentable>(column: String, as type: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try decode(column: column, as: String.self)) else { throw CorruptRowError(column: column) }
        return value
    }

    /// The known value of an open vocabulary in `column`: a value this server does not know is a
    /// corrupt row.
    func decodeEnum<T: OpenVocabulary>(column: String, as type: T.Type) throws -> T {
        guard let value = T(known: try decode(column: column, as: String.self)) else { throw CorruptRowError(column: column) }
        return value
    }
}
