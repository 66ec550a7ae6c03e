import BioAuthKit
import BioAuthTesting
import BioAuthWebAuthn
import Foundation

/// Attack 12: a passkey planted before the account was recovered.
extension DemoScenario {
    /// Attack 12: with a token of Alice's still inside its step-up window, the attacker adds a
    /// passkey of their own; Alice calls the support desk, which recovers her account. The planted
    /// passkey must sign nobody in afterwards, and Alice must get back in.
    package func attackPlantedPasskey() async throws -> DemoSection {
        let title = "A passkey planted before a recovery: the recovery revokes it"
        guard let server = target.inProcess else {
            let reason = "needs the server's database, as an operator's bioauth admin has it (run without --server)"
            return .skippedAttack(number: 12, title: title, property: .recoveryRevokesPlantedPasskey, because: reason)
        }
        // A fresh session of Alice's, read by the attacker within its step-up window.
        let signInBody = try await http.call(.signInWithPassword, json: ["username": username, "password": password]).body
        let stolen = ((try? JSONSerialization.jsonObject(with: signInBody) as? [String: Any])?["session_token"] as? String) ?? ""
        let planted = SoftwareAuthenticator(origin: "https://\(target.relyingPartyID)")
        let added = try await addPasskey(planted, token: stolen)
        let before = try await passkeySignIn(planted)

        let administration = server.server.administration
        let recovery = try await administration.recover(try await administration.account(username))
        let after = try await passkeySignIn(planted)
        let oldToken = try await http.call(.getCurrentSession, token: stolen).status
        let oneTime = await caught { try await client.signIn(username: username, password: recovery.oneTimePassword) }
        let changed = await caught { try await client.changePassword(current: recovery.oneTimePassword, new: password) }
        let back = await caught { try await client.signIn(username: username, password: password) }

        let property = PropertyResult(
            .recoveryRevokesPlantedPasskey,
            held: added == 201 && before.status == 200 && recovery.revoked.passkeys == 1 && after.status == 401
                && after.code == ErrorCode.passkeyUnknown.rawValue && oldToken == 401 && oneTime == nil && changed == nil && back == nil,
            "planted passkey → \(added), signs in → \(before.status); recovery revoked \(recovery.revoked.passkeys) passkey(s) and "
                + "\(recovery.revoked.sessions) session(s); the planted passkey then → \(after.status) \(after.code ?? ""); "
                + "Alice: one-time password → \(oneTime.brief), new password → \(changed.brief), signs in → \(back.brief)"
        )
        return section(
            .attack,
            12,
            title,
            """
            A thief read a fresh token of Alice's and, within its five-minute step-up window, \
            added a passkey of their own: a way back in that outlives the token. Alice notices \
            and calls the support desk, whose `bioauth admin recover` ends every session and, in \
            one transaction, revokes every credential of the account (biometric keys, the PIN, \
            passkeys), unlocks her factors and sets a one-time password. The planted passkey is \
            now unknown. The one-time password signs in once, to a session that can only set a \
            new password.
            """,
            events: [
                "attacker, with Alice's fresh token \(Redaction.abbreviate(stolen)): adds a passkey → \(added); it signs in → \(before.status)",
                "support desk: bioauth admin recover \(username) → ended \(recovery.revoked.sessions) session(s), revoked "
                    + "\(recovery.revoked.passkeys) passkey(s), \(recovery.revoked.biometricKeys) biometric key(s), \(recovery.revoked.pinKeys) PIN key(s)",
                "the planted passkey signs in → \(after.status) \(after.code ?? ""); the stolen token → \(oldToken)",
                "Alice: the one-time password (••••) → \(oneTime.brief); sets a new password → \(changed.brief); signs in with it → \(back.brief)",
            ],
            properties: [property]
        )
    }

    /// Adds a passkey made by `authenticator` to the account of `token`; the answer's status.
    private func addPasskey(_ authenticator: SoftwareAuthenticator, token: String) async throws -> Int {
        let options = try await http.call(.createPasskeyRegistrationOptions, token: token).body
        let ceremony = try JSONSerialization.jsonObject(with: options) as? [String: Any] ?? [:]
        let publicKey = try JSONDecoder().decode(
            PublicKeyCredentialCreationOptionsJSON.self,
            from: JSONSerialization.data(withJSONObject: ceremony["public_key"] ?? [:])
        )
        let credential = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try authenticator.register(publicKey)))
        return try await http.call(
            .registerPasskey,
            object: ["ceremony_id": ceremony["ceremony_id"] ?? "", "credential": credential, "label": "planted"],
            token: token
        ).status
    }

    /// A discoverable passkey sign-in with `authenticator`'s newest credential: status and error code.
    private func passkeySignIn(_ authenticator: SoftwareAuthenticator) async throws -> (status: Int, code: String?) {
        let options = try await http.call(.createPasskeyAuthenticationOptions, object: [:]).body
        let ceremony = try JSONSerialization.jsonObject(with: options) as? [String: Any] ?? [:]
        let publicKey = try JSONDecoder().decode(
            PublicKeyCredentialRequestOptionsJSON.self,
            from: JSONSerialization.data(withJSONObject: ceremony["public_key"] ?? [:])
        )
        let credential = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try authenticator.authenticate(publicKey)))
        let answer = try await http.call(.signInWithPasskey, object: ["ceremony_id": ceremony["ceremony_id"] ?? "", "credential": credential])
        return (answer.status, RawHTTP.errorCode(answer.body))
    }
}
