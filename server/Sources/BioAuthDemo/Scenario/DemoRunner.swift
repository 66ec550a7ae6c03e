import BioAuthKit
import BioAuthTesting
import Foundation

/// Runs the whole demo: the ten steps, then the attacks, and collects the property table.
package enum DemoRunner {
    /// One thing the demo does, with the properties it is responsible for (reported as failed
    /// if it throws before checking them).
    struct Stage {
        var kind: DemoSection.Kind
        var number: Int
        var title: String
        var guards: [SecurityProperty]
        var run: (DemoScenario) async throws -> DemoSection
    }

    static var stages: [Stage] {
        [
            Stage(kind: .step, number: 1, title: "Alice opens the app", guards: [.resultBasedSignIn]) { try await $0.step1OpenApp() },
            Stage(kind: .step, number: 2, title: "She types her credentials", guards: [.resultBasedSignIn]) { $0.step2EnterPassword() },
            Stage(kind: .step, number: 3, title: "The app sends them", guards: [.resultBasedSignIn]) { try await $0.step3SendCredentials() },
            Stage(kind: .step, number: 4, title: "The server issues a token", guards: [.resultBasedSignIn]) { await $0.step4SessionToken() },
            Stage(kind: .step, number: 5, title: "The app offers Face ID", guards: [.resultBasedSignIn]) { await $0.step5OfferBiometrics() },
            Stage(kind: .step, number: 6, title: "Face ID is set up", guards: [.resultBasedSignIn]) { try await $0.step6EnableBiometrics() },
            Stage(kind: .step, number: 7, title: "Alice uses the app", guards: [.resultBasedSignIn]) { try await $0.step7UseApp() },
            Stage(kind: .step, number: 8, title: "Next launch", guards: [.resultBasedSignIn]) { await $0.step8Relaunch() },
            Stage(kind: .step, number: 9, title: "Face ID signs her in", guards: [.resultBasedSignIn]) { try await $0.step9SignInWithBiometrics() },
            Stage(kind: .step, number: 10, title: "The token comes out of secure storage", guards: [.resultBasedSignIn]) {
                try await $0.step10RestoreToken()
            },
            Stage(kind: .attack, number: 1, title: "Frida hook", guards: [.hookedCallbackYieldsNothing, .appStorageHoldsNoSecret]) {
                try await $0.attackHookedEvaluatePolicy()
            },
            Stage(kind: .antiPattern, number: 2, title: "Anti-pattern", guards: [.eventBasedAppFalls]) { try await $0.antiPatternEventBasedApp() },
            Stage(kind: .attack, number: 3, title: "Replay", guards: [.replayRefused]) { try await $0.attackReplay() },
            Stage(kind: .attack, number: 4, title: "Expired challenge", guards: [.expiredChallengeRefused]) { try await $0.attackExpiredChallenge() },
            Stage(kind: .attack, number: 5, title: "Stolen database", guards: [.stolenDatabaseUseless]) { try await $0.attackStolenDatabase() },
            Stage(kind: .attack, number: 6, title: "Enrollment change", guards: [.enrollmentChangeRevokes]) { try await $0.attackEnrollmentChange() },
            Stage(kind: .attack, number: 7, title: "Passcode removed", guards: [.passcodeRemovalDeletesItems]) {
                try await $0.attackPasscodeRemoved()
            },
            Stage(kind: .attack, number: 8, title: "PIN spraying", guards: [.pinSprayingFails]) { try await $0.attackPINSpraying() },
            Stage(kind: .attack, number: 9, title: "PIN guessing", guards: [.pinBruteForceLocked]) { try await $0.attackPINBruteForce() },
            Stage(kind: .attack, number: 10, title: "Stolen token", guards: [.stolenTokenCannotPersist]) { try await $0.attackStolenToken() },
            Stage(kind: .attack, number: 11, title: "Slow PIN guessing", guards: [.slowPINGuessingLocked]) { try await $0.attackSlowPINGuessing() },
            Stage(kind: .attack, number: 12, title: "Planted passkey", guards: [.recoveryRevokesPlantedPasskey]) {
                try await $0.attackPlantedPasskey()
            },
            Stage(kind: .attack, number: 13, title: "Hooked enrollment", guards: [.hookedEnrollmentRefused]) {
                try await $0.attackHookedEnrollment()
            },
            Stage(kind: .attack, number: 14, title: "Payee swapped", guards: [.confirmationBindsWhatWasShown]) {
                try await $0.attackPayeeSwappedOnTheWire()
            },
            Stage(kind: .attack, number: 15, title: "Approval redirected", guards: [.confirmationApprovalNotTransferable]) {
                try await $0.attackApprovalRedirected()
            },
            Stage(kind: .attack, number: 16, title: "Stale approvals", guards: [.staleApprovalRefused]) { try await $0.attackStaleApprovals() },
            Stage(kind: .attack, number: 17, title: "Hooked confirmation", guards: [.hookedConfirmationYieldsNothing]) {
                try await $0.attackHookedConfirmation()
            },
        ]
    }

    /// Runs every step and attack against `target`, handing each section to `onSection` as soon
    /// as it is done (to print it, or to wait for Enter). A step that fails stops the walk (the
    /// attacks need its state); the properties it guards, and all later ones, are then failed.
    package static func run(target: DemoTarget, onSection: (DemoSection) async -> Void = { _ in }) async -> DemoReport {
        let scenario = DemoScenario(target: target)
        var sections: [DemoSection] = []
        var properties: [PropertyResult] = []
        var stopped: String?
        for stage in stages {
            var section: DemoSection
            if let stopped {
                section = DemoSection(
                    kind: stage.kind,
                    number: stage.number,
                    title: stage.title,
                    explanation: "Not run: \(stopped).",
                    properties: stage.guards.map { PropertyResult($0, held: false, "not run: \(stopped)") },
                    skippedBecause: stopped
                )
            } else {
                do {
                    section = try await stage.run(scenario)
                } catch {
                    let why = "\(error)"
                    section = DemoSection(
                        kind: stage.kind,
                        number: stage.number,
                        title: stage.title,
                        explanation: "Failed unexpectedly: \(why)",
                        wire: scenario.tap.drain(),
                        properties: stage.guards.map { PropertyResult($0, held: false, "failed: \(why)") }
                    )
                    if stage.kind == .step { stopped = "step \(stage.number) failed" }
                }
            }
            for result in section.properties where !properties.contains(where: { $0.property == result.property }) {
                properties.append(result)
            }
            sections.append(section)
            await onSection(section)
        }
        let mode = target.inProcess == nil ? "remote" : "in-process"
        return DemoReport(mode: mode, serverURL: target.baseURL.absoluteString, sections: sections, properties: properties)
    }

    /// Starts a server in-process on a temporary SQLite file, runs the demo against it, then
    /// stops the server and deletes the file.
    package static func runInProcess(onSection: (DemoSection) async -> Void = { _ in }) async throws -> DemoReport {
        let server = try await LoopbackServer.startDemo()
        let report = await run(target: .inProcess(server), onSection: onSection)
        try? await server.stop()
        return report
    }
}
