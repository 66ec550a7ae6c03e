import BioAuthDemo
import BioAuthKit
import BioAuthTesting
import Foundation
import Testing

/// The demo's scenario, as `bioauth-dev demo` walks it, driven through the SDK and the simulator.
@Suite("Demo: the sign-in scenario")
struct ScenarioTests {
    @Test("the ten steps sign Alice in from verified signatures, one prompt per biometric operation")
    func tenStepsSignInFromSignatures() async throws {
        try await DemoHarness.withScenario { scenario, sections in
            #expect(sections.map(\.number) == Array(1...10))
            #expect(sections.allSatisfy { $0.kind == .step } == true)
            let verdict = try #require(sections.last?.result(.resultBasedSignIn))
            #expect(verdict.passed, "\(verdict.detail)")
            #expect(await scenario.client.session?.authentication.method == .biometric)
            #expect(scenario.device.promptCount == 3)
            #expect(scenario.device.unansweredPromptCount == 0)
            #expect(scenario.registration?.status == .active)
        }
    }

    @Test("the walk shows what crossed the wire, and never a token, password or PIN whole")
    func wireShowsNoSecretWhole() async throws {
        try await DemoHarness.withScenario { scenario, sections in
            let paths = sections.flatMap(\.wire).map(\.path)
            #expect(paths.contains("/v1/sessions/password"))
            #expect(paths.contains("/v1/sessions/biometric"))
            let text = String(decoding: try JSONEncoder().encode(sections), as: UTF8.self)
            let tokens = scenario.tap.issuedTokens
            #expect(tokens.count >= 2)
            for secret in tokens + [scenario.password, scenario.pin] {
                #expect(!text.contains(secret))
            }
            #expect(text.contains(Redaction.abbreviate(tokens[0])))
        }
    }

    @Test("a full run checks every property and all pass")
    func fullRunPassesEveryProperty() async throws {
        var shown: [DemoSection] = []
        let report = try await DemoRunner.runInProcess { shown.append($0) }
        #expect(report.mode == "in-process")
        #expect(Set(report.properties.map(\.property)) == Set(SecurityProperty.allCases))
        for result in report.properties {
            #expect(result.passed, "\(result.property.rawValue): \(result.detail)")
        }
        #expect(report.allPassed)
        #expect(shown == report.sections)
    }

    @Test("with --server, the attacks that need the server's clock or file are skipped, not failed")
    func remoteModeSkipsInProcessAttacks() async throws {
        let server = try await LoopbackServer.startDemo()
        let report = await DemoRunner.run(target: .remote(server.baseURL, relyingPartyID: LoopbackServer.demoRelyingPartyID))
        try? await server.stop()
        #expect(report.mode == "remote")
        let skipped = Set(report.properties.filter { $0.status == .skip }.map(\.property))
        #expect(
            skipped == [
                .expiredChallengeRefused, .stolenDatabaseUseless, .stolenTokenCannotPersist, .slowPINGuessingLocked,
                .recoveryRevokesPlantedPasskey,
                .hookedEnrollmentRefused, .confirmationBindsWhatWasShown, .confirmationApprovalNotTransferable, .staleApprovalRefused,
                .hookedConfirmationYieldsNothing,
            ]
        )
        #expect(report.properties.filter { $0.status != .skip }.allSatisfy { $0.passed })
        #expect(report.allPassed)
    }
}
