import BioAuthProtocol
import Foundation
import Testing

@Suite("Unknown user vs wrong password")
struct TimingTests {
    @Test("unknown user and wrong password give the same status, code and message")
    func sameAnswer() async throws {
        try await TestServer.run { server in
            let user = try await server.api.signUp()
            let unknown = try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: "no-such-user", password: "wrong password!"))
            let wrong = try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
            #expect(unknown.status == wrong.status)
            #expect(unknown.body == wrong.body)
            let unknownPIN = try await server.api.call(.post, "/v1/sessions/pin", json: PINSignInRequest(username: "no-such-user", pin: "1234"))
            let noPIN = try await server.api.call(.post, "/v1/sessions/pin", json: PINSignInRequest(username: user.username, pin: "1234"))
            #expect(unknownPIN.body == noPIN.body)
            #expect(unknownPIN.body == wrong.body)
        }
    }

    /// With a real cost the hash dominates; without the dummy hash an unknown user would answer in
    /// a small fraction of the time. The bound is loose (a factor of 2.5 between medians of
    /// interleaved runs), so machine noise does not make it flaky while the property still bites.
    @Test("unknown user takes about as long as a wrong password")
    func unknownUserTiming() async throws {
        try await TestServer.run(configure: { $0.passwordHashCost = 9; $0.lockoutThreshold = 1_000 }) { server in
            let user = try await server.api.signUp()
            var unknown: [Duration] = []
            var wrong: [Duration] = []
            let clock = ContinuousClock()
            for round in 0..<12 {
                let unknownTime = try await clock.measure {
                    try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: "ghost-\(round)", password: "wrong password!"))
                }
                let wrongTime = try await clock.measure {
                    try await server.api.call(.post, "/v1/sessions/password", json: PasswordSignInRequest(username: user.username, password: "wrong password!"))
                }
                if round >= 2 {  // warm-up
                    unknown.append(unknownTime)
                    wrong.append(wrongTime)
                }
            }
            let ratio = median(unknown) / median(wrong)
            #expect(ratio > 0.4 && ratio < 2.5, "unknown/wrong median ratio \(ratio) (\(median(unknown)) vs \(median(wrong)))")
        }
    }

    private func median(_ values: [Duration]) -> Duration {
        values.sorted()[values.count / 2]
    }
}
