import BioAuthKit
import BioAuthTesting
import Foundation

/// Attack 11: guessing the PIN slowly, across lockout windows.
extension DemoScenario {
    /// Attack 11: four wrong PINs, a quarter hour's rest, four more, and so on: a counter that
    /// forgot a run after a quiet quarter hour would never lock. This one counts until a success.
    package func attackSlowPINGuessing() async throws -> DemoSection {
        let title = "Slow PIN guessing: four guesses a quarter hour still lock, for good after three locks"
        guard let server = target.inProcess else {
            let reason = "needs control of the server's clock to wait out the lockouts; the in-process demo moves it (run without --server)"
            return .skippedAttack(number: 11, title: title, property: .slowPINGuessingLocked, because: reason)
        }
        // A fresh start: Alice's password sign-in clears any earlier PIN lock.
        try await client.signIn(username: username, password: password)
        var guesses = 0
        var quarterHours = 0
        var last: BioAuthError?
        var events: [String] = []
        let wrong = (0..<100).map { String(format: "%06d", 135_790 + $0 * 7) }.filter { $0 != pin }
        while last?.serverCode != .pinLocked, guesses < 60 {
            last = await caught { try await client.signInWithPIN(wrong[guesses % wrong.count]) }
            if last?.serverCode == .invalidCredentials { guesses += 1 }
            if last?.serverCode != .invalidCredentials || guesses % 4 == 0 {
                events.append("after \(guesses) wrong PIN(s): \(last.brief); the attacker rests a quarter hour")
                server.clock.advance(seconds: 15 * 60 + 1)
                quarterHours += 1
            }
        }
        let right = await caught { try await client.signInWithPIN(pin) }
        try await client.signIn(username: username, password: password)
        let unlocked = await caught { try await client.signInWithPIN(pin) }
        let property = PropertyResult(
            .slowPINGuessingLocked,
            held: last?.serverCode == .pinLocked && guesses == 15 && right?.serverCode == .pinLocked && unlocked == nil,
            "\(guesses) wrong PINs over \(quarterHours) quarter hours, then \(last.brief); the right PIN → \(right.brief); "
                + "after Alice's password sign-in, her PIN → \(unlocked.brief)"
        )
        events.append("the right PIN now → \(right.brief)")
        events.append("Alice signs in with her password; her PIN then → \(unlocked.brief)")
        return section(
            .attack,
            11,
            title,
            """
            The attacker holds Alice's phone and guesses her PIN slowly: four tries, then a rest, \
            so that no five failures ever fall inside one quarter hour. A lockout that forgot a \
            run after a quiet quarter hour would let that go on for ever (about 384 guesses a \
            day). Here failures count until a success of the PIN, however much time passes: \
            every fifth failure locks the PIN, each lock in a row twice as long as the one \
            before, and the third holds until a password sign-in. Fifteen guesses in all, of a \
            million six-digit PINs.
            """,
            events: events,
            properties: [property]
        )
    }
}
