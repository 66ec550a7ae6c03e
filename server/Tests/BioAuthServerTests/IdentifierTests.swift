import Foundation
import Testing

@testable import BioAuthServer

@Suite("Identifiers")
struct IdentifierTests {
    @Test("an identifier is its prefix and 32 hex digits: the milliseconds, then 80 random bits")
    func layout() throws {
        let now = Date(timeIntervalSince1970: 1_764_000_000.123)
        let id = SecureRandom.identifier(.session, at: now)
        #expect(id.count == 4 + 32)
        #expect(id.hasPrefix("ses_"))
        #expect(id.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(UInt64(id.dropFirst(4).prefix(12), radix: 16) == 1_764_000_000_123)
        let others = Set((0..<1_000).map { _ in SecureRandom.identifier(.session, at: now).dropFirst(16) })
        #expect(others.count == 1_000, "the random part differs within one millisecond")
    }

    @Test("identifiers made later sort later, so new rows append to their indexes")
    func timeOrdered() {
        let start = Date()
        let ids = (0..<100).map { SecureRandom.identifier(.event, at: start.addingTimeInterval(Double($0) / 1000)) }
        #expect(ids == ids.sorted())
    }
}
