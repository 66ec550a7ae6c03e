import BioAuthProtocol
import Foundation

/// What an access token says: who (`sub`), for whom (`iss`, `aud`), when (`iat`, `nbf`, `exp`),
/// which session (`sid`), and how and when it was authenticated (`amr`, `auth_time`,
/// `step_up_at`). Nothing else about the user.
struct AccessTokenClaims: Sendable, Equatable {
    var issuer: String
    var subject: String
    var audiences: [String]
    var issuedAt: Int64
    var expiresAt: Int64
    var tokenID: String
    var sessionID: String
    var methods: [String]
    var authTime: Int64
    var stepUpAt: Int64?

    /// The claim set as JSON: `aud` a string when there is one audience, else an array.
    var json: JOSEJSON {
        var members: [(String, JOSEJSON)] = [
            ("iss", .string(issuer)), ("sub", .string(subject)),
            ("aud", audiences.count == 1 ? .string(audiences[0]) : .array(audiences.map(JOSEJSON.string))),
            ("iat", .integer(issuedAt)), ("nbf", .integer(issuedAt)), ("exp", .integer(expiresAt)), ("jti", .string(tokenID)),
            ("sid", .string(sessionID)), ("amr", .array(methods.map(JOSEJSON.string))), ("auth_time", .integer(authTime)),
        ]
        if let stepUpAt { members.append(("step_up_at", .integer(stepUpAt))) }
        return .object(members)
    }

    /// The RFC 8176 methods a session's factors stand for, each once, in the factors' order: the
    /// password `pwd`; the PIN `pin` and `hwk` (it unlocks a device key); a biometric key `hwk`
    /// and `user` (the platform does not say which biometric); a passkey `hwk`, or `swk` when it
    /// may be synced (backup-eligible, or not known to be otherwise), and `user` when the relying
    /// party requires user verification.
    static func methods(factors: [AuthenticationMethod], passkeyBackupEligible: Bool?, passkeyVerifiesUser: Bool) -> [String] {
        var methods: [String] = []
        for factor in factors {
            let values: [String] =
                switch factor {
                case .password: ["pwd"]
                case .pin: ["pin", "hwk"]
                case .biometric: ["hwk", "user"]
                case .passkey: [passkeyBackupEligible == false ? "hwk" : "swk"] + (passkeyVerifiesUser ? ["user"] : [])
                default: []
                }
            for value in values where !methods.contains(value) { methods.append(value) }
        }
        return methods
    }
}
