import BioAuthKit
import BioAuthTesting
import Foundation

/// Attack 10: a stolen session token.
extension DemoScenario {
    /// Attack 10: the attacker holds a live bearer token of Alice's (from another device's memory
    /// or a log) after the step-up window of its sign-in, and tries to turn it into a lasting
    /// credential; then Alice signs out everywhere else.
    package func attackStolenToken() async throws -> DemoSection {
        let title = "A stolen session token: no lasting credential, and sign-out everywhere ends it"
        guard let server = target.inProcess else {
            let reason = "needs control of the server's clock to age the stolen session; the in-process demo moves it (run without --server)"
            return .skippedAttack(number: 10, title: title, property: .stolenTokenCannotPersist, because: reason)
        }
        // Alice's session on her tablet, whose token the attacker reads.
        let tabletBody = try await http.call(.signInWithPassword, json: ["username": username, "password": password]).body
        let stolen = ((try? JSONSerialization.jsonObject(with: tabletBody) as? [String: Any])?["session_token"] as? String) ?? ""
        try await client.signIn(username: username, password: password)  // her phone
        server.clock.advance(seconds: 6 * 60)

        let attackerKey = SoftwareDeviceKey.es256().publicKey()
        let attempts: [(String, Endpoint, [String: String])] = [
            (
                "register the attacker's key", .startRegistration,
                ["algorithm": "ES256", "public_key": Base64URL.encode(attackerKey), "label": "attacker"]
            ),
            (
                "move the PIN to the attacker's key", .setPin,
                ["pin": "58213", "algorithm": "ES256", "public_key": Base64URL.encode(SoftwareDeviceKey.es256().publicKey())]
            ),
            ("change the password", .changePassword, ["current_password": "a guess!", "new_password": "attacker's password"]),
            ("re-authenticate with a guessed password", .reauthenticate, ["password": "a guess!"]),
        ]
        var answers: [(String, Int, String?)] = []
        for (what, endpoint, body) in attempts {
            let answer = try await http.call(endpoint, json: body, token: stolen)
            answers.append((what, answer.status, RawHTTP.errorCode(answer.body)))
        }
        let readable = try await http.call(.listSessions, token: stolen).status
        try await client.signOutEverywhereElse()
        let afterSignOut = try await http.call(.getCurrentSession, token: stolen)
        let phoneToken = await client.sessionToken
        let phone = try await http.call(.getCurrentSession, token: phoneToken).status

        let refused =
            answers.prefix(3).allSatisfy { $0.1 == 403 && $0.2 == ErrorCode.reauthenticationRequired.rawValue }
            && answers[3].1 == 401 && answers[3].2 == ErrorCode.invalidCredentials.rawValue
        let property = PropertyResult(
            .stolenTokenCannotPersist,
            held: refused && afterSignOut.status == 401 && phone == 200,
            answers.map { "\($0.0) → \($0.1) \($0.2 ?? "")" }.joined(separator: "; ")
                + "; after signOutEverywhereElse the stolen token → \(afterSignOut.status), Alice's phone → \(phone)"
        )
        return section(
            .attack,
            10,
            title,
            """
            The attacker has a live token of Alice's (read from another device's memory, or a \
            log) and wants a way back in that outlives it. Registering a device key, setting a \
            PIN and changing the password all need a recent primary authentication: the \
            session's own sign-in, or a re-authentication with the password or Face ID, at most \
            5 minutes old. This token's sign-in is older, and guessing the password to \
            re-authenticate is counted like any password guess. What a token can still do is \
            read the account until it ends (and, inside those 5 minutes of the owner's own \
            sign-in, more: see docs/SECURITY.md). Alice ends it from her phone with "sign out \
            everywhere else".
            """,
            events: [
                "attacker holds \(Redaction.abbreviate(stolen)); server clock moved 6 minutes past its sign-in"
            ] + answers.map { "with the stolen token: \($0.0) → \($0.1) \($0.2 ?? "")" } + [
                "what it can still do: GET /v1/sessions → \(readable) (read the account; the honest limit)",
                "Alice's phone: signOutEverywhereElse() → the stolen token now → \(afterSignOut.status); her own session → \(phone)",
            ],
            properties: [property]
        )
    }
}
