import BioAuthDemo
import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

/// Each attack of `bioauth-dev demo`, run after the scenario, with its property asserted.
@Suite("Demo: the attacks fail")
struct AttackTests {
    @Test("demo: a hooked evaluatePolicy yields no token and no signature; storage holds no secret")
    func hookYieldsNothing() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackHookedEvaluatePolicy()
            #expect(section.result(.hookedCallbackYieldsNothing)?.passed == true)
            #expect(section.result(.appStorageHoldsNoSecret)?.passed == true)
            #expect(await scenario.client.sessionToken == nil)
            #expect(!section.wire.contains { $0.path == "/v1/sessions/biometric" }, "no signature ever reached the server")
            for token in scenario.tap.issuedTokens { #expect(!scenario.device.attacker.storageContains(Data(token.utf8))) }
        }
    }

    @Test("demo: the event-based anti-pattern falls to the same hook")
    func antiPatternFalls() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            _ = try await scenario.attackHookedEvaluatePolicy()
            let prompts = scenario.device.promptCount
            let section = try await scenario.antiPatternEventBasedApp()
            #expect(section.kind == .antiPattern)
            #expect(section.result(.eventBasedAppFalls)?.passed == true)
            #expect(scenario.device.promptCount == prompts, "the bad app handed over its token without a face")
        }
    }

    @Test("demo: a replayed biometric sign-in request is refused")
    func replayRefused() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackReplay()
            #expect(section.result(.replayRefused)?.passed == true)
            #expect(section.wire.last?.status == 401)
        }
    }

    @Test("demo: a signature over an expired challenge is refused")
    func expiredChallengeRefused() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackExpiredChallenge()
            #expect(section.result(.expiredChallengeRefused)?.passed == true)
            #expect(section.wire.last?.path == "/v1/sessions/biometric")
            #expect(section.wire.last?.status == 401)
        }
    }

    @Test("demo: a stolen copy of the database signs nobody in")
    func stolenDatabaseUseless() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackStolenDatabase()
            let verdict = try #require(section.result(.stolenDatabaseUseless))
            #expect(verdict.passed, "\(verdict.detail)")
        }
    }

    @Test("demo: enrollment change → biometryChanged → password sign-in → stale registration revoked")
    func enrollmentChangeRevokes() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let old = try #require(scenario.registration)
            let section = try await scenario.attackEnrollmentChange()
            #expect(section.result(.enrollmentChangeRevokes)?.passed == true)
            #expect(section.wire.contains { $0.method == "DELETE" && $0.status == 204 })
            #expect(scenario.registration?.id != old.id)
            #expect(await scenario.client.isBiometricSignInEnabled())
        }
    }

    @Test("demo: removing the passcode deletes the protected items and key")
    func passcodeRemovalDeletesItems() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackPasscodeRemoved()
            #expect(section.result(.passcodeRemovalDeletesItems)?.passed == true)
            #expect(await scenario.client.isBiometricSignInEnabled() == false)
        }
    }

    @Test("demo: five wrong PINs lock the PIN with a retry time; the right PIN is refused meanwhile")
    func pinBruteForceLocked() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackPINBruteForce()
            #expect(section.result(.pinBruteForceLocked)?.passed == true)
            // Each guess: a fresh challenge for the PIN key (201), then the signed guess.
            #expect(section.wire.map(\.status) == [201, 401, 201, 401, 201, 401, 201, 401, 201, 401, 201, 429])
        }
    }

    @Test("demo: sprayed PINs and a forged PIN key sign nobody in, count nothing, and common PINs cannot be set")
    func pinSprayingFails() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackPINSpraying()
            #expect(section.result(.pinSprayingFails)?.passed == true, "\(section.result(.pinSprayingFails)?.detail ?? "")")
            #expect(section.events.contains { $0.contains("all [400]") })
            // Then the on-device guessing still starts from a clean count: five tries before the lock.
            let guessing = try await scenario.attackPINBruteForce()
            #expect(guessing.result(.pinBruteForceLocked)?.passed == true)
        }
    }

    @Test("demo: a stolen token cannot register a key, move the PIN or change the password; sign-out everywhere ends it")
    func stolenTokenCannotPersist() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackStolenToken()
            #expect(section.result(.stolenTokenCannotPersist)?.passed == true, "\(section.result(.stolenTokenCannotPersist)?.detail ?? "")")
            #expect(await scenario.client.sessionToken != nil, "Alice stays signed in on her phone")
        }
    }

    @Test("demo: slow PIN guessing, four a quarter hour, still locks, and for good after fifteen guesses; a password sign-in unlocks it")
    func slowPINGuessingLocked() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackSlowPINGuessing()
            #expect(section.result(.slowPINGuessingLocked)?.passed == true, "\(section.result(.slowPINGuessingLocked)?.detail ?? "")")
        }
    }

    @Test("demo: a passkey planted with a fresh stolen token signs nobody in after a recovery, and Alice gets back in")
    func recoveryRevokesPlantedPasskey() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackPlantedPasskey()
            #expect(section.result(.recoveryRevokesPlantedPasskey)?.passed == true, "\(section.result(.recoveryRevokesPlantedPasskey)?.detail ?? "")")
            #expect(await scenario.client.sessionToken != nil, "Alice is signed in again")
        }
    }

    @Test("demo: under key attestation, a hooked app's software key is refused and the hardware's key registers")
    func hookedEnrollmentRefused() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackHookedEnrollment()
            #expect(section.result(.hookedEnrollmentRefused)?.passed == true, "\(section.result(.hookedEnrollmentRefused)?.detail ?? "")")
            let starts = section.wire.filter { $0.path == "/v1/biometric/registrations" }.map(\.status)
            #expect(starts == [403, 403, 403, 201])
        }
    }

    @Test("demo: a payee swapped on the wire is shown as swapped, signed as shown, and refused; nothing approved")
    func confirmationBindsWhatWasShown() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackPayeeSwappedOnTheWire()
            #expect(section.result(.confirmationBindsWhatWasShown)?.passed == true, "\(section.result(.confirmationBindsWhatWasShown)?.detail ?? "")")
        }
    }

    @Test("demo: an approval redirected to another payment is refused, and replayed after it went through too")
    func confirmationApprovalNotTransferable() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackApprovalRedirected()
            #expect(
                section.result(.confirmationApprovalNotTransferable)?.passed == true,
                "\(section.result(.confirmationApprovalNotTransferable)?.detail ?? "")"
            )
        }
    }

    @Test("demo: an approval after expiry, of another account's confirmation, or with a revoked key is refused")
    func staleApprovalRefused() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackStaleApprovals()
            #expect(section.result(.staleApprovalRefused)?.passed == true, "\(section.result(.staleApprovalRefused)?.detail ?? "")")
        }
    }

    @Test("demo: a hooked \"are you sure?\" on a phone the attacker holds yields no signature and approves nothing")
    func hookedConfirmationYieldsNothing() async throws {
        try await DemoHarness.withScenario { scenario, _ in
            let section = try await scenario.attackHookedConfirmation()
            #expect(
                section.result(.hookedConfirmationYieldsNothing)?.passed == true,
                "\(section.result(.hookedConfirmationYieldsNothing)?.detail ?? "")"
            )
        }
    }
}
