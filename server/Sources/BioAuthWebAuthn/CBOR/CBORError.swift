/// Why bytes are not a CBOR item of the accepted subset: a struct over a reason, so that new
/// reasons do not break a caller's `switch`.
package struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    package enum Reason: String, Hashable, Sendable {
        /// The input ended inside an item.
        case truncated
        /// Bytes follow the item.
        case trailingBytes
        /// An integer or length not in its shortest form (RFC 8949 §4.2.1: "preferred serialization").
        case notShortestForm
        /// An indefinite length (additional information 31).
        case indefiniteLength
        /// Additional information 28, 29 or 30.
        case reservedAdditionalInformation
        /// A floating-point number, a tag, `undefined` or another simple value.
        case unsupportedType
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// A map with the same key twice.
        case duplicateKey
        /// Items nested deeper than the decoder allows.
        case tooDeep
        /// More bytes, or a longer string or container, than the decoder allows.
        case tooLarge
    }

    /// What was wrong.
    package let reason: Reason
    /// Where: the byte offset of the item.
    package let offset: Int

    /// A failure at `offset`.
    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `notShortestForm at byte 3`.
    package var description: String { "\(reason.rawValue) at byte \(offset)" }
}
