@_spi(DeviceSeam) import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

@Suite("Vault: prompts, policies, invalidation")
struct VaultTests {
    @Test("a write never prompts, also when it replaces an existing secret")
    func writeNeverPrompts() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        try await fixture.vault.store(Data("second".utf8), named: "token")
        #expect(fixture.device.promptCount == 0)
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.vault.read("token", prompt: "Sign in") == Data("second".utf8))
    }

    @Test("a read prompts exactly once, with the caller's reason")
    func readPromptsExactlyOnce() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.willAnswer(.present("owner"))
        let secret = try await fixture.vault.read("token", prompt: "Unlock your account")
        #expect(secret == DeviceFixture.secret)
        #expect(fixture.device.promptCount == 1)
        #expect(fixture.device.promptReasons == ["Unlock your account"])
        #expect(fixture.device.unansweredPromptCount == 0)
    }

    @Test("two reads on a fresh context each prompt; a reused authenticated context does not prompt again")
    func contextReuse() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(Data("a".utf8), named: "a")
        try await fixture.vault.store(Data("b".utf8), named: "b")
        fixture.device.willAnswer(.present("owner"), .present("owner"))
        _ = try await fixture.vault.read("a", prompt: "1")
        _ = try await fixture.vault.read("b", prompt: "2")
        #expect(fixture.device.promptCount == 2)

        let context = fixture.vault.makeContext()
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.vault.read("a", prompt: "3", context: context) == Data("a".utf8))
        #expect(try await fixture.vault.read("b", prompt: "4", context: context) == Data("b".utf8))
        #expect(fixture.device.promptCount == 3)
    }

    @Test("an existence check never prompts")
    func containsNeverPrompts() async throws {
        let fixture = DeviceFixture()
        #expect(try await fixture.vault.contains("token") == false)
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        #expect(try await fixture.vault.contains("token"))
        try await fixture.vault.delete("token")
        #expect(try await fixture.vault.contains("token") == false)
        #expect(fixture.device.promptCount == 0)
    }

    @Test("enrollment change: a biometryCurrentSet secret is gone and reported as biometryChanged")
    func enrollmentChangeInvalidatesDefaultSecret() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.enroll("intruder")
        #expect(await fixture.vault.enrollmentChanged(since: "token"))
        #expect(try await fixture.vault.contains("token") == false)
        fixture.device.willAnswer(.present("intruder"))
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .biometryChanged)
        #expect(fixture.device.pendingAnswerCount == 1, "no prompt for an item that no longer exists")
    }

    @Test("removing an enrolled finger is an enrollment change too")
    func unenrollIsEnrollmentChange() async throws {
        let fixture = DeviceFixture(enrolled: ["owner", "thumb"])
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.unenroll("thumb")
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .biometryChanged)
    }

    @Test("biometryAny (opt-in) survives an enrollment change, and the new finger can read it")
    func biometryAnySurvives() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token", policy: .anyBiometrics)
        fixture.device.enroll("second")
        fixture.device.willAnswer(.present("second"))
        #expect(try await fixture.vault.read("token", prompt: "Sign in") == DeviceFixture.secret)
    }

    @Test("removing the device passcode deletes the protected items")
    func passcodeRemovalDeletesProtectedItems() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        _ = try await fixture.keys.createKey(named: "device")
        fixture.device.removePasscode()
        #expect(try await fixture.vault.contains("token") == false)
        #expect(await fixture.keys.containsKey(named: "device") == false)
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .passcodeNotSet)
        #expect(!fixture.device.attacker.storageContains(DeviceFixture.secret))
        fixture.device.setPasscode("654321")
        #expect(try await fixture.vault.contains("token") == false, "setting a new passcode does not bring them back")
    }

    @Test("passcode fallback is off by default: the passcode does not open a default secret")
    func passcodeFallbackOffByDefault() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.willAnswer(.passcode("123456"))
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .authenticationFailed)
    }

    @Test("passcode fallback only when opted in: biometricsOrPasscode accepts the passcode")
    func passcodeFallbackWhenOptedIn() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token", policy: .biometricsOrPasscode)
        fixture.device.willAnswer(.passcode("123456"))
        #expect(try await fixture.vault.read("token", prompt: "Sign in") == DeviceFixture.secret)
        fixture.device.willAnswer(.passcode("000000"))
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .authenticationFailed)
    }

    @Test("passcode fallback works on a device with no biometry only when opted in")
    func passcodeOnlyDevice() async throws {
        let fixture = DeviceFixture(biometry: .none, enrolled: [])
        #expect(await caught { try await fixture.vault.store(DeviceFixture.secret, named: "token") } == .biometryNotAvailable)
        try await fixture.vault.store(DeviceFixture.secret, named: "token", policy: .biometricsOrPasscode)
        fixture.device.willAnswer(.passcode("123456"))
        #expect(try await fixture.vault.read("token", prompt: "Sign in") == DeviceFixture.secret)
    }

    @Test("delete removes the secret and is idempotent")
    func deleteIsIdempotent() async throws {
        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        try await fixture.vault.delete("token")
        try await fixture.vault.delete("token")
        #expect(await caught { try await fixture.vault.read("token", prompt: "Sign in") } == .itemNotFound)
    }
}
