@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

/// The threat model's attacker on the device, without a real match.
@Suite("Security: the attacker on the device")
struct DeviceAttackerTests {
    @Test("hooked evaluatePolicy success yields no secret: the hardware still demands a real match")
    func hookedEvaluatePolicyYieldsNoSecret() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.attacker.hookEvaluatePolicy()
        let context = fixture.vault.makeContext()
        // The app is told "authenticated"...
        #expect(await context.context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "hooked") == nil)
        // ...but the item is released only to an enrolled face (the prompt's two attempts fail).
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        #expect(await caught { try await fixture.vault.read("token", prompt: "p", context: context) } == .authenticationFailed)
        #expect(await caught { try await fixture.vault.read("token", prompt: "p", context: context) } == .userCanceled)
    }

    @Test("hooked evaluatePolicy success yields no signature")
    func hookedEvaluatePolicyYieldsNoSignature() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "device")
        fixture.device.attacker.hookEvaluatePolicy()
        let context = fixture.vault.makeContext()
        #expect(await context.context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "hooked") == nil)
        let message = SignedMessage(ceremony: .authentication, relyingPartyID: "rp", registrationID: "reg", challenge: Data(count: 32))
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        #expect(await caught { try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p", context: context) } == .authenticationFailed)
    }

    @Test("app storage holds no secret and no private key in the clear")
    func storageHoldsNoSecret() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        _ = try await fixture.keys.createKey(named: "es")
        _ = try await fixture.keys.createKey(named: "ed", algorithm: .ed25519)
        let readable = fixture.device.attacker.readAppStorage()
        #expect(!readable.isEmpty, "the non-secret records are readable")
        #expect(!fixture.device.attacker.storageContains(DeviceFixture.secret))
        // Nothing readable is 32 bytes of key material on its own.
        #expect(readable.allSatisfy { $0.count != 32 })
    }
}
