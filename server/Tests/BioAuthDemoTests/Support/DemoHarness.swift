import BioAuthDemo
import BioAuthTesting
import Foundation

/// A fresh in-process server and scenario for one test; the server and its file are removed after.
enum DemoHarness {
    /// Runs `body` with a scenario whose ten steps have (or, with `walked: false`, have not) run.
    static func withScenario<T>(walked: Bool = true, _ body: (DemoScenario, [DemoSection]) async throws -> T) async throws -> T {
        let server = try await LoopbackServer.startDemo()
        do {
            let scenario = DemoScenario(target: .inProcess(server))
            let sections = walked ? try await walk(scenario) : []
            let result = try await body(scenario, sections)
            try? await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// The scenario's ten steps, in order.
    static func walk(_ scenario: DemoScenario) async throws -> [DemoSection] {
        [
            try await scenario.step1OpenApp(),
            scenario.step2EnterPassword(),
            try await scenario.step3SendCredentials(),
            await scenario.step4SessionToken(),
            await scenario.step5OfferBiometrics(),
            try await scenario.step6EnableBiometrics(),
            try await scenario.step7UseApp(),
            await scenario.step8Relaunch(),
            try await scenario.step9SignInWithBiometrics(),
            try await scenario.step10RestoreToken(),
        ]
    }
}
