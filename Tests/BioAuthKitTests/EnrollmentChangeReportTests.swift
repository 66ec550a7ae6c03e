@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

@testable @_spi(DeviceSeam) import BioAuthKit

/// An enrollment change invalidates `.biometryCurrentSet` items (SecAccessControl.h); a device may
/// delete them or keep them failing in any error domain. Each way is recognised, without a prompt
/// where the platform allows it, and a major OS update alone is never taken for one.
@Suite("An enrollment change is recognised however the device reports it")
struct EnrollmentChangeReportTests {
    @Test("after an enrollment change the key is not usable (no prompt), and signing with it is biometryChanged", arguments: DeviceReport.all)
    func keyAfterEnrollmentChange(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        fixture.device.enroll("someone else")
        let prompts = fixture.device.promptCount
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .lost(.biometryChanged))
        #expect(fixture.device.promptCount == prompts, "deciding took no prompt")
        fixture.device.willAnswer(.present("owner"))
        await #expect(throws: BioAuthError.biometryChanged) {
            try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p")
        }
    }

    @Test("after an enrollment change a vault secret reads as biometryChanged", arguments: DeviceReport.all)
    func vaultAfterEnrollmentChange(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.unenroll("owner")
        fixture.device.enroll("new face")
        fixture.device.willAnswer(.present("new face"))
        await #expect(throws: BioAuthError.biometryChanged) { try await fixture.vault.read("token", prompt: "p") }
    }

    @Test("a major OS update alone leaves the key usable, whichever way the device would report a change", arguments: DeviceReport.all)
    func osUpdateIsNoEnrollmentChange(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.installOSUpdate()
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p").count > 0)
    }

    @Test("a key whose passcode was removed is missing, not changed")
    func passcodeRemoved() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.removePasscode()
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .lost(.keyMissing))
    }
}
