import BioAuthProtocol
import Foundation

/// Fresh random values: identifiers, tokens and challenges.
///
/// `SystemRandomNumberGenerator` is the platform's cryptographic generator (getrandom on Linux,
/// arc4random on Apple platforms).
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// An identifier: the type prefix and 128 random bits as 32 lowercase hex digits.
    static func identifier(_ prefix: IdentifierPrefix) -> String {
        prefix.rawValue + bytes(16).map { String(format: "%02x", $0) }.joined()
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
