import BioAuthProtocol
import Crypto
import Foundation

/// An authentication challenge the server does not store: everything it needs to check an answer
/// is in the challenge's id, under a tag only the server can make.
///
/// The id is `chl_` and 112 lowercase hex digits: 56 bytes, which are
///
/// | bytes | what |
/// |---|---|
/// | 6 | when the challenge expires, in milliseconds since 1970, big-endian (so ids sort by expiry) |
/// | 10 | random |
/// | 16 | the registration it was issued for (the 32 hex digits of its `reg_` id) |
/// | 8 | the owner's credential epoch when it was issued, big-endian: a sign-in answering it after a password change, a recovery or a revocation yields nothing (``AccountStateSQL``) |
/// | 16 | HMAC-SHA-256 of the 40 bytes above under the server key, truncated |
///
/// and the challenge's 32 bytes are HMAC-SHA-256 of the same 40 bytes under the same key, with
/// another label: unpredictable without the key, and never sent back by the client. The key is
/// the current PIN key (``PINKeyRing``), which every instance on one database already shares;
/// an id made under an older key of the ring still verifies.
///
/// Issuing writes nothing. Single use is enforced where the answer is accepted: the completion's
/// transaction records the id as spent (``SpentChallengeTable``), and of concurrent completions
/// only the one whose insert lands goes on. A forged or altered id fails its tag before anything
/// is read or written.
struct AuthenticationChallenge: Sendable, Equatable {
    /// The id given to the client.
    let id: String
    /// The registration whose key must sign it.
    let registrationID: String
    /// Its owner's credential epoch when it was issued.
    let epoch: Int64
    /// Milliseconds since 1970 after which it is refused.
    let expiresAt: Int64
    /// What the key signs (``SignatureRules/message(_:relyingPartyID:registrationID:challenge:)``).
    let bytes: Data

    private static let tagLabel = Array("bioauth authentication challenge id:".utf8)
    private static let bytesLabel = Array("bioauth authentication challenge:".utf8)
    private static let bodyCount = 40
    private static let tagCount = 16

    /// The text every id of a challenge expiring at or after `milliseconds` sorts after, and every
    /// earlier one before: the prefix and the expiry's 12 hex digits.
    static func idPrefix(expiringAt milliseconds: Int64) -> String {
        IdentifierPrefix.challenge.spelling(expiryBytes(milliseconds))
    }

    private static func expiryBytes(_ milliseconds: Int64) -> Data {
        SecureRandom.timeBytes(milliseconds: UInt64(max(0, milliseconds)))
    }

    /// A new challenge for `registrationID` (a `reg_` id as the server makes them) whose owner's
    /// credential epoch is `epoch`, valid until `expiresAt`; `nil` for a registration id of
    /// another form.
    static func issue(registrationID: String, epoch: Int64, expiresAt: Date, key: PINKeyRing.Key) -> AuthenticationChallenge? {
        guard let registration = Self.bytes(ofIdentifier: registrationID, prefix: .registration), registration.count == 16 else { return nil }
        var body = expiryBytes(expiresAt.millisecondsSince1970)
        body += SecureRandom.bytes(10)
        body += registration
        body += withUnsafeBytes(of: UInt64(bitPattern: epoch).bigEndian) { Data($0) }
        return make(body: body, tag: tag(body: body, key: key), key: key)
    }

    /// The challenge with id `id`, if its tag verifies under a key of `keys`; `nil` for any other
    /// text (whether or not it has expired is the caller's question).
    static func verify(id: String, keys: PINKeyRing) -> AuthenticationChallenge? {
        guard let decoded = bytes(ofIdentifier: id, prefix: .challenge), decoded.count == bodyCount + tagCount else { return nil }
        let body = decoded.prefix(bodyCount)
        let tag = decoded.suffix(tagCount)
        guard let key = keys.keys.first(where: { ConstantTime.equals(Self.tag(body: body, key: $0), tag) }) else { return nil }
        return make(body: Data(body), tag: Data(tag), key: key)
    }

    private static func make(body: Data, tag: Data, key: PINKeyRing.Key) -> AuthenticationChallenge {
        let expiry = body.prefix(6).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let registration = body.dropFirst(16).prefix(16)
        let epoch = body.dropFirst(32).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return AuthenticationChallenge(
            id: IdentifierPrefix.challenge.spelling(body + tag),
            registrationID: IdentifierPrefix.registration.spelling(Data(registration)),
            epoch: Int64(bitPattern: epoch),
            expiresAt: expiry,
            bytes: Data(mac(bytesLabel, body, key: key))
        )
    }

    private static func tag(body: some DataProtocol, key: PINKeyRing.Key) -> Data {
        Data(mac(tagLabel, body, key: key).prefix(tagCount))
    }

    /// HMAC-SHA-256 of `label` followed by `body` under `key` (from the key's prepared HMAC: its
    /// setup cost more than the hashing, four times a sign-in).
    private static func mac(_ label: [UInt8], _ body: some DataProtocol, key: PINKeyRing.Key) -> HashedAuthenticationCode<SHA256> {
        var mac = key.mac
        mac.update(data: label)
        mac.update(data: body)
        return mac.finalize()
    }

    /// The bytes of `prefix` followed by lowercase hex digits; `nil` for any other text.
    private static func bytes(ofIdentifier text: String, prefix: IdentifierPrefix) -> Data? {
        let utf8 = Array(text.utf8)
        let prefixBytes = Array(prefix.rawValue.utf8)
        guard utf8.count > prefixBytes.count, utf8.starts(with: prefixBytes), (utf8.count - prefixBytes.count) % 2 == 0 else { return nil }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes = Data(capacity: (utf8.count - prefixBytes.count) / 2)
        var index = prefixBytes.count
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
