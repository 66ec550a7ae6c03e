import BioAuthKit
import BioAuthTesting
import Foundation

/// Attack 8: spraying common PINs over usernames.
extension DemoScenario {
    /// The PINs people choose most, as an attacker would try them.
    static let sprayedPINs = ["1234", "0000", "123456", "111111"]

    /// Attack 8: the attacker tries the most common PINs (and Alice's own) against many usernames,
    /// then with a key of their own; nothing signs in, and no guess even reaches a PIN check.
    package func attackPINSpraying() async throws -> DemoSection {
        // Sign in with the PIN once, so the attacker can sniff the PIN key's registration id.
        try await client.signInWithPIN(pin)
        let usernames = [username] + (1...10).map { "customer-\($0)-\(username.suffix(6))" }
        var statuses: [Int] = []
        for name in usernames {
            for guess in Self.sprayedPINs + [pin] {
                statuses.append(try await http.call(.signInWithPin, json: ["username": name, "pin": guess]).status)
            }
        }
        // With the sniffed registration id and Alice's right PIN, but a key of the attacker's own.
        let registrationID =
            tap.lastRequest(pathSuffix: Endpoint.createChallenge.path())
            .flatMap { $0.httpBody }.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }?["registration_id"] ?? ""
        let challengeBody = try await http.call(.createChallenge, json: ["registration_id": registrationID]).body
        let challenge = (try? JSONSerialization.jsonObject(with: challengeBody) as? [String: String]) ?? [:]
        let forged = SoftwareDeviceKey.es256().sign(
            .authentication,
            rpID: target.relyingPartyID,
            registrationID: registrationID,
            challenge: Base64URL.decode(challenge["challenge"] ?? "") ?? Data()
        )
        let (forgedBody, forgedStatus) = try await { () async throws -> (Data, Int) in
            let answer = try await http.call(
                .signInWithPin,
                json: [
                    "challenge_id": challenge["challenge_id"] ?? "", "signature": Base64URL.encode(forged), "pin": pin,
                ]
            )
            return (answer.body, answer.status)
        }()
        // No guess moved Alice's PIN counter: her own phone still signs in with it at once.
        let own = await caught { try await client.signInWithPIN(pin) }
        let common = await caught { try await client.setPIN("123456", keepBehindBiometrics: false) }
        let sprayHeld = statuses.allSatisfy { $0 == 400 }
        let forgedCode = RawHTTP.errorCode(forgedBody)
        let property = PropertyResult(
            .pinSprayingFails,
            held: sprayHeld && forgedStatus == 401 && forgedCode == ErrorCode.signatureInvalid.rawValue && own == nil
                && common?.serverCode == .pinTooCommon,
            "\(statuses.count) sprayed {username, pin} → \(Set(statuses).sorted()); forged key + right PIN → \(forgedStatus) \(forgedCode ?? ""); "
                + "Alice's own PIN afterwards → \(own.brief); setPIN(123456) → \(common.brief)"
        )
        var result = section(
            .attack,
            8,
            "PIN spraying: common PINs over many usernames",
            """
            The old way to break PIN sign-in: try the handful of PINs everyone picks against \
            every username the sign-up page confirms; with four guesses per lockout that takes \
            over an account in five. Here a PIN counts only with a signature by the phone it was \
            set on, so a bare username and PIN is not even a sign-in request (400), and a \
            signature by any other key is refused before the PIN is looked at. No guess reached \
            a PIN check, so none moved Alice's lockout counter; common PINs cannot be set anyway.
            """,
            events: [
                "sprayed: \(usernames.count) usernames × \(Self.sprayedPINs.count + 1) PINs (Alice's real one among them) → \(statuses.count) requests, all \(Set(statuses).sorted())",
                "sniffed PIN key registration \(Redaction.abbreviate(registrationID)); a challenge signed by the attacker's key, with the right PIN → \(forgedStatus) \(forgedCode ?? "")",
                "Alice's phone: signInWithPIN(••••••) → \(own.brief) (no lockout was counted)",
                "setPIN(123456) → \(common.brief)",
            ],
            properties: [property]
        )
        let wire = result.wire
        result.wire = Array(wire.prefix(3)) + Array(wire.suffix(4))
        if wire.count > 7 { result.events.append("(\(wire.count) requests in all; the first three and the last four are shown)") }
        return result
    }
}
