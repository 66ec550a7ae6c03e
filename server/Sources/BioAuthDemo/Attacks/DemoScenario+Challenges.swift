import BioAuthKit
import BioAuthTesting
import Foundation

/// Attacks 3 and 4: a replayed sign-in request and a signature over an expired challenge.
extension DemoScenario {
    /// Attack 3: the attacker recorded Alice's biometric sign-in request and sends it again.
    package func attackReplay() async throws -> DemoSection {
        device.willAnswer(.present("owner"))
        try await client.signInWithBiometrics(prompt: "Sign in to Bank")
        guard let recorded = tap.lastRequest(pathSuffix: Endpoint.signInWithBiometric.path()) else {
            throw BioAuthError.transport("no sign-in request recorded")
        }
        let (body, response) = try await tap.replay(recorded)
        let code = RawHTTP.errorCode(body)
        let property = PropertyResult(
            .replayRefused,
            held: response.statusCode == 401 && code == ErrorCode.challengeInvalid.rawValue,
            "replay answered \(response.statusCode) \(code ?? "(no error code)")"
        )
        return section(
            .attack,
            3,
            "Replay: the recorded sign-in request, sent again",
            """
            Alice signs in with Face ID while the attacker records the traffic, then sends her \
            signed request again, byte for byte. The server consumed the challenge atomically on \
            first use, so the same signature now points at nothing: refused, and no session.
            """,
            events: [
                "Alice signs in with Face ID (recorded)",
                "attacker replays POST /v1/sessions/biometric → \(response.statusCode) \(code ?? "")",
            ],
            properties: [property]
        )
    }

    /// Attack 4: a signed answer that arrives after its challenge expired.
    package func attackExpiredChallenge() async throws -> DemoSection {
        let title = "Expired challenge: a signature held back too long"
        guard let server = target.inProcess else {
            let reason = "needs control of the server's clock; the in-process demo moves it (run without --server)"
            return .skippedAttack(number: 4, title: title, property: .expiredChallengeRefused, because: reason)
        }
        let lifetime = TimeInterval(server.configuration.challengeTTL.components.seconds)
        tap.setHold { request in
            if request.url?.path.hasSuffix(Endpoint.signInWithBiometric.path()) == true { server.clock.advance(seconds: lifetime + 1) }
        }
        defer { tap.setHold(nil) }
        device.willAnswer(.present("owner"))
        let error = await caught { try await client.signInWithBiometrics(prompt: "Sign in to Bank") }
        let property = PropertyResult(
            .expiredChallengeRefused,
            held: error?.serverCode == .challengeInvalid && error?.rejection?.status == 401,
            "a signature sent \(Int(lifetime) + 1) s after its challenge was issued → \(error.brief)"
        )
        return section(
            .attack,
            4,
            title,
            """
            A correctly signed answer is held back (by a slow network or an attacker who hopes \
            to use it later) past the challenge's lifetime of \(Int(lifetime)) s; the demo moves \
            the server's clock instead of waiting. The server refuses it: a challenge is good \
            for one answer, within its lifetime, for one ceremony, registration and relying party.
            """,
            events: [
                "Face ID → match → the key signs the challenge",
                "request held; server clock moved forward \(Int(lifetime) + 1) s",
                "POST /v1/sessions/biometric → \(error.brief)",
            ],
            properties: [property]
        )
    }
}
