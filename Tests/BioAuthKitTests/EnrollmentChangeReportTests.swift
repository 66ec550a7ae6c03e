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

    @Test(
        "a major OS update alone leaves the key usable, whichever way the device would report a change",
        arguments: DeviceReport.all + DeviceReport.answeringNeedsUI
    )
    func osUpdateIsNoEnrollmentChange(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.installOSUpdate()
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p").count > 0)
    }

    @Test("after an enrollment change, containsKey and contains say no, however the device reports it", arguments: DeviceReport.all)
    func existenceChecksAfterEnrollmentChange(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        #expect(await fixture.keys.containsKey(named: "k"))
        #expect(try await fixture.vault.contains("token"))
        fixture.device.enroll("someone else")
        let keyFound = await fixture.keys.containsKey(named: "k")
        let secretFound: Bool?
        do { secretFound = try await fixture.vault.contains("token") } catch { secretFound = nil }
        #expect(keyFound == false)
        #expect(secretFound == false)
        #expect(fixture.device.promptCount == 0)
    }

    @Test("a key whose passcode was removed is missing, not changed")
    func passcodeRemoved() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.removePasscode()
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .lost(.keyMissing))
    }
}

/// Apple documents only that an enrollment change invalidates a `.biometryCurrentSet` key
/// (SecAccessControl.h), not what it then answers to a call that may not show UI. On a device
/// that answers "needs UI", as for a sound key, the probe cannot tell; the next prompt must, and
/// an OS update on the same device must still cost nothing.
@Suite("An invalidated key that answers \"needs UI\" without UI")
struct InvalidatedKeyNeedingUITests {
    @Test(
        "the key reads usable without a prompt; the next prompt, matched, is biometryChanged (one prompt)",
        arguments: DeviceReport.answeringNeedsUI
    )
    func nextPromptTells(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.enroll("someone else")
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable, "nothing to tell without UI")
        let prompts = fixture.device.promptCount
        fixture.device.willAnswer(.present("owner"))
        let answer1 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer1 == .biometryChanged)
        #expect(fixture.device.promptCount == prompts + 1)
    }

    @Test("a failed match or a cancel on that prompt is the user's answer, not a lost key", arguments: DeviceReport.answeringNeedsUI)
    func usersAnswerIsNoLoss(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.enroll("someone else")
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        let answer2 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer2 == .authenticationFailed)
        fixture.device.willAnswer(.cancel)
        let answer3 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer3 == .userCanceled)
        fixture.device.willAnswer(.present("owner"))
        let answer4 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer4 == .biometryChanged)
    }

    @Test("a vault secret on such a device: its next read, matched, is biometryChanged", arguments: DeviceReport.answeringNeedsUI)
    func vaultNextReadTells(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.enroll("someone else")
        #expect(try await fixture.vault.contains("token"))
        fixture.device.willAnswer(.present("someone else"))
        let answer5 = await caught { try await fixture.vault.read("token", prompt: "p") }
        #expect(answer5 == .biometryChanged)
    }
}
