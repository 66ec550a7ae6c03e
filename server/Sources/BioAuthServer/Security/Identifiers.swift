import BioAuthProtocol
import Foundation

/// Fresh random values: identifiers, tokens and challenges.
///
/// `SystemRandomNumberGenerator` is the platform's cryptographic generator (getrandom on Linux,
/// arc4random on Apple platforms).
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> Data {
        // Eight bytes per draw: each draw is a getrandom system call on Linux.
        var generator = SystemRandomNumberGenerator()
        var data = Data(capacity: count + 8)
        while data.count < count {
            withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) }
        }
        return data.prefix(count)
    }

    /// An identifier: the type prefix and 32 lowercase hex digits, the time in milliseconds
    /// since 1970 (48 bits, as in a version 7 UUID) followed by 80 random bits.
    ///
    /// The time first makes identifiers made later sort later, so a new row's key lands at the
    /// end of its index, on the page the previous insert wrote, instead of on a random page of a
    /// large index: fewer pages written per sign-in, and rows of one group commit share pages.
    /// 80 random bits keep identifiers unguessable and unique.
    package static func identifier(_ prefix: IdentifierPrefix, at now: Date = Date()) -> String {
        prefix.spelling(identifierBytes(at: now))
    }

    /// The 16 bytes an identifier made at `now` spells in hex: a session token carries its
    /// session's (``SessionToken``).
    package static func identifierBytes(at now: Date = Date()) -> Data {
        timeBytes(milliseconds: UInt64(max(0, now.timeIntervalSince1970 * 1000))) + bytes(10)
    }

    /// The low 48 bits of `milliseconds`, big-endian: the time that begins an identifier (and a
    /// challenge id's expiry), so that later times sort later.
    package static func timeBytes(milliseconds: UInt64) -> Data {
        let value = milliseconds & 0xFFFF_FFFF_FFFF
        return Data((0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - $0))) })
    }
}

/// Lowercase hexadecimal text of bytes.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two digits per byte, by table: four identifiers per sign-in and millions when seeding a
    /// benchmark, where `String(format: "%02x")` cost a formatter per byte.
    package static func lowercase(_ bytes: Data) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        bytes.withUnsafeBytes { raw in  // not `for byte in bytes`: Data's iterator costs more than the digits
            for byte in raw {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The type prefixes of the contract's identifiers.
package enum IdentifierPrefix: String {
    case user = "usr_"
    case registration = "reg_"
    case challenge = "chl_"
    case session = "ses_"
    case event = "evt_"
    case passkey = "pk_"
    case webAuthnCeremony = "wac_"
    case confirmation = "cnf_"
    case serviceCredential = "svc_"

    /// The identifier (or the start of one) that spells `bytes` in lowercase hex after this prefix.
    package func spelling(_ bytes: Data) -> String {
        rawValue + Hex.lowercase(bytes)
    }
}
