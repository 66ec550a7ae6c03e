import Crypto
import Foundation
import Testing

@testable import BioAuthServer

/// The stateless authentication challenge: everything the server checks is in the id, under its key.
@Suite("Authentication challenge ids")
struct AuthenticationChallengeTests {
    static let registrationID = "reg_0123456789abcdef0123456789abcdef"
    static let key = PINKeyRing(keys: [Data(repeating: 7, count: 32)])
    static let otherKey = PINKeyRing(keys: [Data(repeating: 8, count: 32)])

    @Test("an issued id verifies under its key to the same registration, epoch, expiry and bytes; ids and bytes are never repeated")
    func roundTrip() throws {
        let expiry = Date(millisecondsSince1970: 1_795_292_305_123)
        let issued = try #require(
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: 7, expiresAt: expiry, key: Self.key.current)
        )
        #expect(issued.id.wholeMatch(of: /chl_[0-9a-f]{112}/) != nil)
        #expect(
            issued.registrationID == Self.registrationID && issued.epoch == 7 && issued.expiresAt == 1_795_292_305_123 && issued.bytes.count == 32
        )
        let later = try #require(
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: -2, expiresAt: expiry, key: Self.key.current)
        )
        #expect(AuthenticationChallenge.verify(id: later.id, keys: Self.key)?.epoch == -2)
        #expect(AuthenticationChallenge.verify(id: issued.id, keys: Self.key) == issued)
        let more = (0..<100).compactMap { _ in
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: 7, expiresAt: expiry, key: Self.key.current)
        }
        #expect(Set(more.map(\.id)).count == 100 && Set(more.map(\.bytes)).count == 100)
    }

    @Test("the id's tag and the challenge's bytes are HMAC-SHA-256 of their labels and the id's 40 bytes, under the key")
    func tagAndBytesAreTheDocumentedHMACs() throws {
        let issued = try #require(
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: 7, expiresAt: Date(), key: Self.key.current)
        )
        let hex = Array(issued.id.dropFirst(4).utf8)
        let decoded = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        let (body, tag) = (Array(decoded.prefix(40)), Array(decoded.dropFirst(40)))
        let secret = SymmetricKey(data: Data(repeating: 7, count: 32))
        let expectedTag = HMAC<SHA256>.authenticationCode(for: Array("bioauth authentication challenge id:".utf8) + body, using: secret)
        #expect(tag == Array(expectedTag.prefix(16)))
        let expectedBytes = HMAC<SHA256>.authenticationCode(for: Array("bioauth authentication challenge:".utf8) + body, using: secret)
        #expect(issued.bytes == Data(expectedBytes))
    }

    @Test("an id made under another key is refused; after a rotation, an id made under the old key still verifies")
    func keys() throws {
        let issued = try #require(
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: 7, expiresAt: Date(), key: Self.key.current)
        )
        #expect(AuthenticationChallenge.verify(id: issued.id, keys: Self.otherKey) == nil)
        let rotated = PINKeyRing(keys: [Data(repeating: 8, count: 32), Data(repeating: 7, count: 32)])
        #expect(AuthenticationChallenge.verify(id: issued.id, keys: rotated) == issued)
    }

    @Test("changing any one digit of an id, or its length, makes it unverifiable")
    func everyDigitIsCovered() throws {
        let issued = try #require(
            AuthenticationChallenge.issue(registrationID: Self.registrationID, epoch: 7, expiresAt: Date(), key: Self.key.current)
        )
        let digits = Array(issued.id.dropFirst(4))
        for position in digits.indices {
            var altered = digits
            altered[position] = altered[position] == "0" ? "1" : "0"
            #expect(AuthenticationChallenge.verify(id: "chl_" + String(altered), keys: Self.key) == nil, "digit \(position)")
        }
        for text in [String(issued.id.dropLast(2)), issued.id + "00", issued.id.uppercased(), "reg_" + issued.id.dropFirst(4), "", "chl_"] {
            #expect(AuthenticationChallenge.verify(id: text, keys: Self.key) == nil, "\(text)")
        }
    }

    @Test("only a server-made registration id gets a challenge")
    func registrationForm() {
        for id in ["reg_0123", "reg_0123456789ABCDEF0123456789ABCDEF", "usr_0123456789abcdef0123456789abcdef", "nonsense", ""] {
            #expect(AuthenticationChallenge.issue(registrationID: id, epoch: 0, expiresAt: Date(), key: Self.key.current) == nil, "\(id)")
        }
    }

    @Test("ids sort by expiry, so the purge's prefix divides the expired from the rest")
    func idsSortByExpiry() throws {
        let now: Int64 = 1_795_292_305_000
        let expiries: [Int64] = [now - 1, now, now + 1, now + 120_000]
        let ids = try expiries.map {
            try #require(
                AuthenticationChallenge.issue(
                    registrationID: Self.registrationID,
                    epoch: 7,
                    expiresAt: Date(millisecondsSince1970: $0),
                    key: Self.key.current
                )
            ).id
        }
        #expect(ids.sorted() == ids)
        let prefix = AuthenticationChallenge.idPrefix(expiringAt: now)
        #expect(ids.map { $0 < prefix } == [true, false, false, false])
    }
}
