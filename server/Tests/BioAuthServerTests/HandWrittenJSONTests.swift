import BioAuthProtocol
import Foundation
import NIOCore
import Testing

@testable import BioAuthServer

@Suite("Hand-written JSON")
struct HandWrittenJSONTests {
    /// Text with every character JSON treats specially (each control character, `"`, `\`, `/`),
    /// and ASCII, non-ASCII and astral characters around them.
    private static func randomText(_ random: inout some RandomNumberGenerator) -> String {
        let special: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) } + ["\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}"]
        let plain: [Character] = ["a", "Z", "0", " ", "é", "ß", "Ω", "漢", "🔐", "e\u{301}", "\u{FEFF}"]
        let length = Int.random(in: 0...24, using: &random)
        return String(
            (0..<length).map { _ in
                Bool.random(using: &random) ? special.randomElement(using: &random)! : plain.randomElement(using: &random)!
            }
        )
    }

    private static func randomDate(_ random: inout some RandomNumberGenerator) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800_000, using: &random)) / 1000)
    }

    private static func encoderBytes(_ value: some Encodable) throws -> [UInt8] {
        Array(try WireJSON.makeEncoder().encode(value))
    }

    @Test("a sign-in's answer is byte for byte what the encoder writes, for any text, times and options")
    func signIn() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<2_000 {
            let method = AuthenticationMethod.allCases[round % AuthenticationMethod.allCases.count]
            let session = Session(
                id: Self.randomText(&random),
                userID: Self.randomText(&random),
                createdAt: Self.randomDate(&random),
                expiresAt: Self.randomDate(&random),
                authentication: .init(
                    method: method,
                    registrationID: Bool.random(using: &random) ? Self.randomText(&random) : nil,
                    passkeyID: Bool.random(using: &random) ? Self.randomText(&random) : nil
                ),
                authenticatedAt: Self.randomDate(&random),
                factors: Array(AuthenticationMethod.allCases.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random))),
                stepUpAt: Bool.random(using: &random) ? Self.randomDate(&random) : nil,
                passwordChangeRequired: Bool.random(using: &random)
            )
            let response = SignInResponse(
                sessionToken: Self.randomText(&random),
                session: session,
                user: User(id: Self.randomText(&random), username: Self.randomText(&random), createdAt: Self.randomDate(&random))
            )
            let written = HandWrittenJSON.signIn(response)
            #expect(Array(written.readableBytesView) == (try Self.encoderBytes(response)))
        }
    }

    @Test("a challenge's answer is byte for byte what the encoder writes")
    func challenge() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = Data((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            let response = ChallengeResponse(challengeID: Self.randomText(&random), challenge: bytes, expiresAt: Self.randomDate(&random))
            #expect(Array(HandWrittenJSON.challenge(response).readableBytesView) == (try Self.encoderBytes(response)))
        }
    }
}
