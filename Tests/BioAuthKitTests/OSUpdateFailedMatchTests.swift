@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

@testable @_spi(DeviceSeam) import BioAuthKit

/// A moved domain state may explain a failure in words; it never turns a failed match or a cancel
/// on the prompt into a lost key, whichever way the device would report a real change.
@Suite("After an OS update, a failed match is not an enrollment change")
struct OSUpdateFailedMatchTests {
    @Test(
        "an OS update, then a failed match and a cancel: authenticationFailed and userCanceled, the key stays usable, and the next match signs",
        arguments: DeviceReport.all + DeviceReport.answeringNeedsUI
    )
    func failedMatchKeepsTheKey(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.installOSUpdate()
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        let answer1 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer1 == .authenticationFailed)
        fixture.device.willAnswer(.cancel)
        let answer2 = await caught { try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(answer2 == .userCanceled)
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        let prompts = fixture.device.promptCount
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p").count > 0)
        #expect(fixture.device.promptCount == prompts + 1, "one prompt")
        #expect(await !fixture.keys.enrollmentChanged(since: "k"), "the new state is the baseline")
    }

    @Test(
        "an OS update, then a failed match on a vault read: authenticationFailed, and the next match opens the secret",
        arguments: DeviceReport.all + DeviceReport.answeringNeedsUI
    )
    func failedMatchKeepsTheSecret(report: DeviceReport) async throws {
        let fixture = DeviceFixture()
        report.apply(to: fixture.device)
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        fixture.device.installOSUpdate()
        fixture.device.willAnswer(.presentUnenrolled, .presentUnenrolled)
        let answer3 = await caught { try await fixture.vault.read("token", prompt: "p") }
        #expect(answer3 == .authenticationFailed)
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.vault.read("token", prompt: "p") == DeviceFixture.secret)
    }

    @Test("an OS update, then the task canceled while its prompt is up: userCanceled, the prompt closed, the key stays usable")
    func canceledPromptKeepsTheKey() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "k")
        fixture.device.installOSUpdate()
        fixture.device.willAnswer(.leaveUp)
        let keys = fixture.keys
        let signing = Task { try await keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p") }
        #expect(try await fixture.device.waitForOpenPrompts(1))
        let canceled = ContinuousClock.now
        signing.cancel()
        await #expect(throws: BioAuthError.userCanceled) { try await signing.value }
        #expect(ContinuousClock.now - canceled < .seconds(3), "at once, not when the system gives up")
        #expect(try await fixture.device.waitForOpenPrompts(0), "the prompt was closed")
        #expect(await fixture.keys.usability(ofKeyNamed: "k") == .usable)
        fixture.device.willAnswer(.present("owner"))
        #expect(try await fixture.keys.sign(bytes: Data("m".utf8), withKeyNamed: "k", prompt: "p").count > 0)
    }
}
