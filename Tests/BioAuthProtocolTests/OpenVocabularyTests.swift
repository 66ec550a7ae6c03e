import Foundation
import Testing

@testable import BioAuthProtocol

/// The contract's vocabularies are open: a value a newer server sends, which this version has
/// never seen, decodes with its text and fails nothing else in the answer.
@Suite("Open vocabularies: values a newer server adds decode")
struct OpenVocabularyTests {
    @Test(
        "a session, a registration, an audit event, an attestation mode and verdict and an error with values this version never saw decode, keeping the text"
    )
    func unseenValuesDecode() throws {
        let decoder = WireJSON.makeDecoder()
        let session = try decoder.decode(
            Session.self,
            from: Data(
                """
                {"id":"ses_1","user_id":"usr_1","created_at":"2026-11-21T20:18:25.000Z","expires_at":"2026-11-21T21:18:25.000Z",
                 "authentication":{"method":"palm_vein"},"authenticated_at":"2026-11-21T20:18:25.000Z","factors":["palm_vein","password"]}
                """.utf8
            )
        )
        #expect(session.authentication.method.rawValue == "palm_vein" && !session.authentication.method.isKnown)
        #expect(session.factors == [AuthenticationMethod(rawValue: "palm_vein"), .password])
        let registration = try decoder.decode(
            Registration.self,
            from: Data(
                """
                {"id":"reg_1","kind":"passphrase","algorithm":"ES256","label":"","status":"suspended","created_at":"2026-11-21T20:18:25.000Z",
                 "attestation":{"verdict":"provisional"}}
                """.utf8
            )
        )
        #expect(registration.kind.rawValue == "passphrase" && registration.status.rawValue == "suspended")
        #expect(registration.attestation?.verdict.rawValue == "provisional")
        let event = try decoder.decode(
            AuditEvent.self,
            from: Data(#"{"id":"evt_1","type":"payment.confirmed","outcome":"success","created_at":"2026-11-21T20:18:25.000Z"}"#.utf8)
        )
        #expect(event.type.rawValue == "payment.confirmed" && !event.type.isKnown)
        let mode = try decoder.decode(
            AttestationChallengeResponse.self,
            from: Data(#"{"challenge":"AAAA","expires_at":"2026-11-21T20:18:25.000Z","mode":"audit"}"#.utf8)
        ).mode
        #expect(mode.rawValue == "audit")
        let error = try decoder.decode(ErrorResponse.self, from: Data(#"{"error":{"code":"a_code_from_the_future","message":"later"}}"#.utf8))
        #expect(error.error.code.rawValue == "a_code_from_the_future" && !error.error.code.isKnown)
    }

    @Test("the known values are what the server sends, and round-trip; init(known:) refuses the rest")
    func knownValues() throws {
        #expect(ErrorCode.invalidSession.rawValue == "invalid_session" && ErrorCode.invalidSession.isKnown)
        #expect(AuditEvent.Kind(known: "user.created") == .userCreated)
        #expect(AuditEvent.Kind(known: "user.deleted") == nil)
        #expect(Set(AuthenticationMethod.allCases.map(\.rawValue)) == ["password", "pin", "biometric", "passkey"])
        let encoded = try WireJSON.makeEncoder().encode(ErrorResponse(code: .passkeyUnknown, message: "m"))
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""code":"passkey_unknown""#))
    }
}
