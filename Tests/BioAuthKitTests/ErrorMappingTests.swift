@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

/// Each failure produced by the simulated device, as the raw code Apple returns, and as the
/// ``BioAuthError`` the app sees.
@Suite("Errors: simulated OSStatus / LAError codes mapped to BioAuthError")
struct ErrorMappingTests {
    private func storedFixture(enrolled: Set<String> = ["owner"]) async throws -> DeviceFixture {
        let fixture = DeviceFixture(enrolled: enrolled)
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        return fixture
    }

    private func rawRead(_ fixture: DeviceFixture, interactionNotAllowed: Bool = false) -> KeychainStatus {
        let query = KeychainQuery(
            itemClass: .genericPassword,
            service: "com.example.bank",
            account: "token",
            returnData: true,
            authenticationContext: fixture.device.makeContext(),
            interactionNotAllowed: interactionNotAllowed,
            operationPrompt: "raw"
        )
        return fixture.device.copyMatching(query).status
    }

    @Test("cancel: -128 → userCanceled")
    func userCanceled() async throws {
        let fixture = try await storedFixture()
        fixture.device.willAnswer(.cancel)
        #expect(rawRead(fixture) == KeychainStatus(rawValue: -128))
        fixture.device.willAnswer(.cancel)
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .userCanceled)
    }

    @Test("a face that is not enrolled, at both attempts of a prompt: -25293 → authenticationFailed")
    func authenticationFailed() async throws {
        let fixture = try await storedFixture()
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        #expect(rawRead(fixture) == KeychainStatus(rawValue: -25293))
        fixture.device.willAnswer(.present("stranger"), .present("stranger"))
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .authenticationFailed)
    }

    @Test("five failed attempts: biometryLockout until the passcode is entered")
    func lockoutAfterFiveFailures() async throws {
        let fixture = try await storedFixture()
        for _ in 0..<2 {
            fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
            #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .authenticationFailed)
        }
        fixture.device.willAnswer(.presentUnenrolled)
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .biometryLockout)
        #expect(fixture.device.isBiometryLockedOut)
        let prompts = fixture.device.promptCount
        fixture.device.willAnswer(.present("owner"))
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .biometryLockout)
        #expect(fixture.device.promptCount == prompts, "no prompt while locked out")
        #expect(fixture.device.device_makeContextCanEvaluate() == LAErrorCode.biometryLockout)

        #expect(!fixture.device.enterPasscode("000000"))
        #expect(fixture.device.enterPasscode("123456"))
        #expect(try await fixture.vault.read("token", prompt: "p") == DeviceFixture.secret)
    }

    @Test("no item: -25300 → itemNotFound")
    func itemNotFound() async throws {
        let fixture = DeviceFixture()
        #expect(rawRead(fixture) == KeychainStatus(rawValue: -25300))
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .itemNotFound)
    }

    @Test("duplicate add: -25299 (the vault replaces by delete + add instead)")
    func duplicateItem() async throws {
        let fixture = try await storedFixture()
        let query = KeychainQuery(
            itemClass: .genericPassword,
            service: "com.example.bank",
            account: "token",
            accessibility: .whenPasscodeSetThisDeviceOnly,
            accessControl: .biometryCurrentSet,
            data: Data("x".utf8)
        )
        #expect(fixture.device.add(query) == KeychainStatus(rawValue: -25299))
    }

    @Test("a prompt that may not be shown: -25308 → interactionNotAllowed")
    func interactionNotAllowed() async throws {
        let fixture = try await storedFixture()
        #expect(rawRead(fixture, interactionNotAllowed: true) == KeychainStatus(rawValue: -25308))
        #expect(fixture.device.promptCount == 0)
        // An invalidated context authenticates nothing.
        let context = fixture.vault.makeContext()
        context.context.invalidate()
        #expect(await caught { try await fixture.vault.read("token", prompt: "p", context: context) } == .authenticationFailed)
    }

    @Test("missing keychain entitlement: -34018 → missingEntitlement")
    func missingEntitlement() async throws {
        let fixture = try await storedFixture()
        fixture.device.setEntitlementMissing(true)
        #expect(rawRead(fixture) == KeychainStatus(rawValue: -34018))
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .missingEntitlement)
        #expect(await caught { try await fixture.vault.store(DeviceFixture.secret, named: "other") } == .missingEntitlement)
    }

    @Test("no passcode: storing is refused with passcodeNotSet")
    func passcodeNotSet() async throws {
        let fixture = DeviceFixture(passcode: nil)
        #expect(await caught { try await fixture.vault.store(DeviceFixture.secret, named: "token") } == .passcodeNotSet)
        #expect(await caught { try await fixture.keys.createKey(named: "k") } == .passcodeNotSet)
        // The hardware itself refuses, whatever the app checks first.
        let query = KeychainQuery(
            itemClass: .genericPassword,
            service: "s",
            account: "a",
            accessibility: .whenPasscodeSetThisDeviceOnly,
            accessControl: .biometryCurrentSet,
            data: Data("x".utf8)
        )
        #expect(fixture.device.add(query) == KeychainStatus(rawValue: -25293))
    }

    @Test("no enrolled biometry: biometryNotEnrolled")
    func biometryNotEnrolled() async throws {
        let fixture = DeviceFixture(enrolled: [])
        #expect(await caught { try await fixture.vault.store(DeviceFixture.secret, named: "token") } == .biometryNotEnrolled)
    }

    @Test("no sensor: biometryNotAvailable")
    func biometryNotAvailable() async throws {
        let fixture = DeviceFixture(biometry: .none, enrolled: [])
        #expect(await caught { try await fixture.keys.createKey(named: "k") } == .biometryNotAvailable)
    }

    @Test("all enrolled faces removed after storing: biometryChanged, not 'not enrolled'")
    func allBiometryRemoved() async throws {
        let fixture = try await storedFixture()
        fixture.device.unenroll("owner")
        #expect(await caught { try await fixture.vault.read("token", prompt: "p") } == .biometryChanged)
    }
}

extension SimulatedDevice {
    /// What a fresh context says about the biometric policy now.
    func device_makeContextCanEvaluate() -> LAErrorCode? {
        makeContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics)
    }
}
