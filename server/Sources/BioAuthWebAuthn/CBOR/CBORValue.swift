/// A decoded CBOR data item of the subset WebAuthn and CTAP2 use (RFC 8949 §3; CTAP2's canonical
/// form, §8 "Message Encoding"): integers, byte and text strings, arrays, maps, booleans and null.
/// Floating-point numbers, tags, `undefined` and indefinite lengths are refused by ``CBORDecoder``.
package enum CBORValue: Hashable, Sendable {
    /// Major type 0: 0 … 2⁶⁴−1.
    case unsigned(UInt64)
    /// Major type 1: −1 − `n`, for `n` in 0 … 2⁶⁴−1 (so −2⁶⁴ … −1).
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3, valid UTF-8.
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in encoded order; keys are unique.
    case map([Entry])
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// One key and value of a map.
    package struct Entry: Hashable, Sendable {
        /// The key.
        package var key: CBORValue
        /// The value.
        package var value: CBORValue

        /// A key and its value.
        package init(_ key: CBORValue, _ value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value as a signed integer, when it is one that fits.
    package var integer: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The value under `key`, when this is a map that has it.
    package subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The value under the integer key `key` (COSE keys use these).
    package subscript(key: Int64) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    /// The value under the text key `key` (attestation objects use these).
    package subscript(key: String) -> CBORValue? {
        self[.text(key)]
    }
}
