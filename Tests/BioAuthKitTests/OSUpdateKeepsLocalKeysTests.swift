import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

/// The biometric domain state "can change exceptionally between major OS versions even if the
/// state of biometry has not changed" (LAContext.h): a moved domain state alone costs no local
/// secret or key. (The sign-in across an OS update, against a server, is in the server package's
/// BioAuthClientTests.)
@Suite("An OS update moves the domain state and keeps the vault and keys")
struct OSUpdateKeepsLocalKeysTests {
    @Test("an OS update alone: a vault secret still opens, and the key store signs", arguments: [SignatureAlgorithm.es256, .ed25519])
    func vaultAndKeysSurvive(algorithm: SignatureAlgorithm) async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        _ = try await fixture.keys.createKey(named: "k", algorithm: algorithm)
        fixture.device.installOSUpdate()
        fixture.device.willAnswer(.present("owner"), .present("owner"))
        #expect(try await fixture.vault.read("token", prompt: "p") == DeviceFixture.secret)
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p").count > 0)
        // A confirmed key takes the new state as its baseline: nothing looks changed any more.
        #expect(await !fixture.keys.enrollmentChanged(since: "k"))
        #expect(await !fixture.vault.enrollmentChanged(since: "token"))
    }
}
