import BioAuthKit
import BioAuthTesting
import Foundation

/// Attack 9: guessing the PIN on the device.
extension DemoScenario {
    /// Attack 9: five wrong PINs, then the right one.
    package func attackPINBruteForce() async throws -> DemoSection {
        let guesses = ["000000", "123456", "111111", "654321", "121212"].filter { $0 != pin }.prefix(5)
        var answers: [BioAuthError?] = []
        for guess in guesses {
            answers.append(await caught { try await client.signInWithPIN(guess) })
        }
        let right = await caught { try await client.signInWithPIN(pin) }
        let retryAfter = right?.rejection?.retryAfterSeconds
        let property = PropertyResult(
            .pinBruteForceLocked,
            held: answers.count == 5 && answers.allSatisfy { $0?.serverCode == .invalidCredentials } && right?.serverCode == .locked
                && (retryAfter ?? 0) > 0,
            "5 wrong PINs → \(Set(answers.map(\.brief)).sorted().joined(separator: ", ")); then the right PIN → \(right.brief)"
        )
        var events = zip(guesses, answers).enumerated().map { index, pair in "guess \(index + 1): \(pair.0) → \(pair.1.brief)" }
        events.append("guess 6, the right PIN (••••••) → \(right.brief)")
        if let retryAfter { events.append("locked: retry in \(retryAfter) s (about \(Int((Double(retryAfter) / 60).rounded())) minutes)") }
        return section(
            .attack,
            9,
            "PIN guessing on the phone: five wrong PINs lock the factor",
            """
            Someone holding Alice's unlocked phone guesses her PIN (the phone's PIN key signs each \
            try). A six-digit PIN is only a million guesses, so the server counts failures per \
            account and factor, in the database (they survive restarts and are shared by every \
            server instance). The fifth failure locks the PIN for 15 minutes: even the right PIN \
            is refused until then, and the answer says when to retry; the third lockout in a row \
            holds until a password sign-in.
            """,
            events: events,
            properties: [property]
        )
    }
}
