import BioAuthProtocol
import Foundation

/// Fresh random values: identifiers, tokens and challenges.
///
/// `SystemRandomNumberGenerator` is the platform's cryptographic generator (getrandom on Linux,
/// arc4random on Apple platforms).
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> Data {
        // Eight bytes per draw: each draw is a getrandom system call on Linux.
        var generator = SystemRandomNumberGenerator()
        var data = Data(capacity: count + 8)
        while data.count < count {
            withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) }
        }
        return data.prefix(count)
    }

    /// An identifier: the type prefix and 128 random bits as 32 lowercase hex digits.
    static func identifier(_ prefix: IdentifierPrefix) -> String {
        // Four identifiers per sign-in and millions when seeding a benchmark: hex by table, not
        // by `String(format:)`, which costs a formatter per byte.
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text = Array(prefix.rawValue.utf8)
        text.reserveCapacity(text.count + 32)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) {
                text.append(digits[Int((word >> UInt64(shift)) & 0xf)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The type prefixes of the contract's identifiers.
enum IdentifierPrefix: String {
    case user = "usr_"
    case registration = "reg_"
    case challenge = "chl_"
    case session = "ses_"
    case event = "evt_"
}
