import Foundation

/// Refuses Ed25519 public-key encodings that no honest device produces: non-canonical ones
/// (y ≥ p = 2²⁵⁵ − 19) and the eight points of small order, with either sign bit. A small-order
/// key would let a signature verify for many messages (the identity verifies `R = A, S = 0` for
/// every message), so it must never be registered.
///
/// An encoding of a y for which no curve point exists is not refused here (that check needs
/// field arithmetic the platform library does not expose); such a key never verifies anything.
enum Ed25519KeyCheck {
    /// The low 255 bits (sign bit cleared) of every small-order point, little-endian.
    private static let smallOrderY: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),  // y = 0: order 4
        [0x01] + [UInt8](repeating: 0, count: 31),  // y = 1: the identity
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
        ],  // order 8
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
        ],  // order 8
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],  // y = p − 1: order 2
    ]

    /// Whether a 32-byte encoding is canonical and not of small order.
    static func isAcceptable(_ key: Data) -> Bool {
        guard key.count == 32 else { return false }
        var y = [UInt8](key)
        y[31] &= 0x7F
        // Non-canonical: y ≥ p, i.e. 0x7FFF…FF followed by a low byte ≥ 0xED.
        if y[31] == 0x7F, y[1...30].allSatisfy({ $0 == 0xFF }), y[0] >= 0xED { return false }
        return !smallOrderY.contains(y)
    }
}
