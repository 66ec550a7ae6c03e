import BioAuthProtocol
import BioAuthWebAuthn
import Crypto
import Foundation

/// The `allowCredentials` a username-first passkey sign-in lists for a username with no account,
/// or an account with no passkeys: made up, but looking like a real account's list, so that the
/// answer does not tell whether the username exists.
///
/// A real list names one to a few credentials, each with an id of the length its kind of
/// authenticator makes (16 bytes for Google Password Manager, 20 for iCloud Keychain, 32 for
/// Windows Hello, 64 for many security keys) and the sorted transports it reported. The decoy draws
/// the same: count, lengths and transports from that mix and id bytes from HMAC-SHA-256 of the
/// username under a server key, so the same username gets the same list every time, as a real
/// account does, and nobody without the key can tell it from one. Its sign-in fails as another
/// user's passkey does (the ceremony remembers it was username-first).
enum PasskeyDecoy {
    private static let counts = [1, 1, 1, 1, 1, 1, 2, 2, 2, 3]
    private static let idLengths = [16, 16, 20, 20, 20, 32, 32, 64]
    private static let transports: [[String]] = [["hybrid", "internal"], ["hybrid", "internal"], ["internal"], ["nfc", "usb"], ["usb"]]

    /// The decoy list for username key `usernameKey` under `key`.
    static func descriptors(for usernameKey: String, key: PINKeyRing.Key) -> [PublicKeyCredentialDescriptorJSON] {
        let seed = bytes(label: "shape", usernameKey, key: key)
        return (0..<counts[Int(seed[0]) % counts.count]).map { index in
            let length = idLengths[Int(seed[1 + index]) % idLengths.count]
            let id = bytes(label: "id \(index) a", usernameKey, key: key) + bytes(label: "id \(index) b", usernameKey, key: key)
            return PublicKeyCredentialDescriptorJSON(
                id: Base64URLBytes(id.prefix(length)),
                transports: transports[Int(seed[4 + index]) % transports.count]
            )
        }
    }

    private static func bytes(label: String, _ usernameKey: String, key: PINKeyRing.Key) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("passkey decoy \(label):\(usernameKey)".utf8), using: key.secret))
    }
}
