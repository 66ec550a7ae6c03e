/// A strict decoder for the CBOR WebAuthn and CTAP2 send: definite lengths only, integers and
/// lengths in their shortest form, no duplicate map keys, valid UTF-8, no floats, tags or other
/// simple values, bounded depth and size, and (for ``decode(_:)``) no trailing bytes.
///
/// Map keys need not be in canonical order: WebAuthn relying parties must accept the attestation
/// statements authenticators actually produce, and the order carries no meaning.
package struct CBORDecoder: Sendable {
    /// Deepest nesting of arrays and maps accepted (an attestation object needs 4).
    package var maxDepth = 16
    /// Most input bytes accepted.
    package var maxBytes = 64 * 1024
    /// Most elements of one array or entries of one map accepted.
    package var maxElements = 1_024

    /// The decoder with its default limits.
    package init() {}

    /// Decodes exactly one item that fills `bytes`.
    package func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes)
        guard end == bytes.count else { throw CBORError(.trailingBytes, at: end) }
        return value
    }

    /// Decodes one item at the start of `bytes`; returns it and the offset just past it (the
    /// credential package key inside authenticator data is followed by more bytes).
    package func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (CBORValue, end: Int) {
        guard bytes.count <= maxBytes else { throw CBORError(.tooLarge, at: 0) }
        var reader = Reader(bytes: bytes, limits: self)
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: CBORDecoder
        var offset = 0

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            guard depth <= limits.maxDepth else { throw CBORError(.tooDeep, at: offset) }
            let start = offset
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1F
            if major == 7 {
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                case 31: throw CBORError(.indefiniteLength, at: start)
                case 28, 29, 30: throw CBORError(.reservedAdditionalInformation, at: start)
                default: throw CBORError(.unsupportedType, at: start)  // undefined, other simple values, floats
                }
            }
            if major == 6 { throw CBORError(.unsupportedType, at: start) }  // tags
            let argument = try self.argument(info, at: start)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(try take(argument, at: start))
            case 3:
                let raw = try take(argument, at: start)
                guard let text = String(validating: raw, as: UTF8.self) else { throw CBORError(.invalidUTF8, at: start) }
                return .text(text)
            case 4:
                let count = try elements(argument, at: start)
                var items: [CBORValue] = []
                items.reserveCapacity(count)
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            default:  // 5
                let count = try elements(argument, at: start)
                var entries: [CBORValue.Entry] = []
                var keys = Set<CBORValue>()
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let keyOffset = offset
                    let key = try item(depth: depth + 1)
                    guard keys.insert(key).inserted else { throw CBORError(.duplicateKey, at: keyOffset) }
                    entries.append(CBORValue.Entry(key, try item(depth: depth + 1)))
                }
                return .map(entries)
            }
        }

        /// The integer or length an initial byte introduces, in its shortest form only.
        mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
            switch info {
            case 0..<24:
                return UInt64(info)
            case 24, 25, 26, 27:
                let width = 1 << Int(info - 24)
                var value: UInt64 = 0
                for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
                let smallest: UInt64 =
                    switch width {
                    case 1: 24
                    case 2: 0x100
                    case 4: 0x1_0000
                    default: 0x1_0000_0000
                    }
                guard value >= smallest else { throw CBORError(.notShortestForm, at: start) }
                return value
            case 31:
                throw CBORError(.indefiniteLength, at: start)
            default:
                throw CBORError(.reservedAdditionalInformation, at: start)
            }
        }

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw CBORError(.truncated, at: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
            guard length <= UInt64(bytes.count - offset) else { throw CBORError(.truncated, at: start) }
            let end = offset + Int(length)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }

        func elements(_ count: UInt64, at start: Int) throws(CBORError) -> Int {
            guard count <= UInt64(limits.maxElements) else { throw CBORError(.tooLarge, at: start) }
            // Each element takes at least one byte: a count beyond what is left is truncated input.
            guard count <= UInt64(bytes.count - offset) else { throw CBORError(.truncated, at: start) }
            return Int(count)
        }
    }
}
