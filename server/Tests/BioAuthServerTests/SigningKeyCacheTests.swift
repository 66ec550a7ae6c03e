import BioAuthProtocol
import BioAuthTesting
import Testing

@testable import BioAuthServer

@Suite("Signing key cache")
struct SigningKeyCacheTests {
    private func entry(_ user: String) throws -> SigningKeyCache.Entry {
        let key = SoftwareDeviceKey.es256()
        return SigningKeyCache.Entry(
            userID: user,
            kind: .biometric,
            key: try DevicePublicKey(algorithm: .es256, bytes: key.publicKey()),
            verified: false
        )
    }

    @Test("it holds at most two generations of keys, and a key used again survives the rotation that drops the unused ones")
    func boundedGenerations() throws {
        let cache = SigningKeyCache(capacity: 2)
        try cache.remember(entry("a"), for: "reg_a")
        try cache.remember(entry("b"), for: "reg_b")
        try cache.remember(entry("c"), for: "reg_c")  // the first generation (a, b) is now the older one
        #expect(cache.entry(for: "reg_a")?.userID == "a")  // used again: back in the newer generation (c, a)
        try cache.remember(entry("d"), for: "reg_d")  // rotates: (c, a) older, (d) newer; b is gone
        #expect(cache.entry(for: "reg_b") == nil)
        #expect(cache.entry(for: "reg_a")?.userID == "a")
        #expect(cache.entry(for: "reg_d")?.userID == "d")
        #expect(cache.count <= 4)
    }
}
