import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

/// What an attacker measures: the time an answer takes.
///
/// Wall-clock time means something only on a quiet machine. Beside the rest of the suite on two
/// cores, the fastest of ten runs of one kind was 0.59x the other's in one local run and 1.62x
/// in CI, so `scripts/test` runs this suite on its own, after the others, as it does the
/// benchmark's smoke run. Run alone: `swift test --filter UsernameTimingTests`.
@Suite("Unknown user vs wrong password: timing")
struct UsernameTimingTests {
    /// With a real cost the hash dominates; without the dummy hash an unknown user would answer in
    /// a small fraction of the time. Both do the same writes too (UsernameEnumerationTests), so
    /// the fastest of interleaved runs must agree within a factor of 1.5. Load only ever adds
    /// time, so the fastest run of each kind is the one closest to its own work.
    @Test("unknown user takes about as long as a wrong password")
    func unknownUserTiming() async throws {
        try await TestServer.run(configure: {
            $0.passwordHashCost = 9
            $0.lockoutThreshold = 1_000
        }) { server in
            let user = try await server.api.signUp()
            var unknown: [Duration] = []
            var wrong: [Duration] = []
            let clock = ContinuousClock()
            for round in 0..<12 {
                let unknownTime = try await clock.measure {
                    try await server.api.call(
                        .post,
                        "/v1/sessions/password",
                        json: PasswordSignInRequest(username: "ghost-\(round)", password: "wrong password!")
                    )
                }
                let wrongTime = try await clock.measure {
                    try await server.api.call(
                        .post,
                        "/v1/sessions/password",
                        json: PasswordSignInRequest(username: user.username, password: "wrong password!")
                    )
                }
                if round >= 2 {  // warm-up
                    unknown.append(unknownTime)
                    wrong.append(wrongTime)
                }
            }
            let fastestUnknown = unknown.min()!
            let fastestWrong = wrong.min()!
            let ratio = fastestUnknown / fastestWrong
            #expect(ratio > 1 / 1.5 && ratio < 1.5, "unknown/wrong ratio of the fastest runs \(ratio) (\(fastestUnknown) vs \(fastestWrong))")
        }
    }
}
