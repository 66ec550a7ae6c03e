/// The verdict on one security property.
package struct PropertyResult: Codable, Sendable, Equatable {
    /// Held, broken, or not checked in this mode.
    package enum Status: String, Codable, Sendable {
        /// The property held.
        case pass = "PASS"
        /// The property did not hold.
        case fail = "FAIL"
        /// Not checkable in this mode (the reason is in ``PropertyResult/detail``).
        case skip = "SKIP"
    }

    /// Which property.
    package var property: SecurityProperty
    /// Its one-line statement.
    package var statement: String
    /// The verdict.
    package var status: Status
    /// The evidence, or why it failed or was skipped.
    package var detail: String

    /// A verdict from a check: ``Status/pass`` when `held`.
    package init(_ property: SecurityProperty, held: Bool, _ detail: String) {
        self.property = property
        statement = property.statement
        status = held ? .pass : .fail
        self.detail = detail
    }

    /// A property not checked in this mode.
    package static func skipped(_ property: SecurityProperty, because reason: String) -> PropertyResult {
        var result = PropertyResult(property, held: true, reason)
        result.status = .skip
        return result
    }

    /// Whether the property held.
    package var passed: Bool { status == .pass }
}
