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

    /// An identifier: the type prefix and 128 random bits as 32 lowercase hex digits.
    package static func identifier(_ prefix: IdentifierPrefix) -> String {
        prefix.rawValue + Hex.lowercase(bytes(16))
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
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
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
}
