import BioAuthAttestation
import BioAuthKit
import BioAuthTesting
import BioAuthWebAuthn
import Crypto
import Foundation

/// Attack 13: a hooked enrollment, against a server that requires hardware evidence.
extension DemoScenario {
    /// Attack 13: Frida in Alice's banking app on a rooted Android phone makes the app register a
    /// key the attacker holds (a software key, or a Keystore key made without a biometric), on a
    /// server run with `--key-attestation require`; then the genuine app registers its key.
    package func attackHookedEnrollment() async throws -> DemoSection {
        let title = "A hooked enrollment: under --key-attestation require, only a key the hardware vouches for registers"
        guard target.inProcess != nil else {
            let reason = "needs a server run with --key-attestation require and the demo's stand-in for Google's roots (run without --server)"
            return .skippedAttack(number: 13, title: title, property: .hookedEnrollmentRefused, because: reason)
        }
        let bank = AndroidAllowedApp(
            packageName: "com.example.bank",
            signingCertificateDigest: Array(SHA256.hash(data: Data("bank release key".utf8)))
        )
        // Stands for Google's attestation roots, which only real phones' keystores chain to.
        let google = try AndroidAttestationCA(validity: Date().addingTimeInterval(-86_400)...Date().addingTimeInterval(86_400 * 365))
        let rootsFile = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-demo-roots-\(UUID().uuidString).pem")
        try google.root.serializeAsPEM().pemString.write(to: rootsFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: rootsFile) }
        let server = try await LoopbackServer.start(clock: .system()) { configuration in
            configuration.relyingPartyID = LoopbackServer.demoRelyingPartyID
            configuration.passwordHashCost = 10
            configuration.keyAttestation = .require
            configuration.androidAllowedApps = [bank.description]
            configuration.androidAttestationRootsFile = rootsFile.path
        }
        let bankAPI = RawHTTP(baseURL: server.baseURL, transport: tap)
        let outcome: (events: [String], held: Bool)
        do {
            outcome = try await hookedEnrollment(on: bankAPI, google: google, bank: bank)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
        let property = PropertyResult(.hookedEnrollmentRefused, held: outcome.held, outcome.events.joined(separator: "; "))
        return section(
            .attack,
            13,
            title,
            """
            Frida runs inside the banking app on a rooted Android phone, right after Alice's \
            password sign-in. It makes the app register a key the attacker controls: a software \
            key it can copy off the phone and use from anywhere, or a Keystore key made without a \
            biometric, which signs whenever the hooked app asks. The server runs with \
            --key-attestation require: a key registers only with the chain the phone's secure \
            hardware wrote when it made the key, which says where the key lives, that it signs only \
            after a strong biometric each time, and which app made it. The hook can lie to the app, \
            not to that chain. (Here a test authority stands in for Google's roots.)
            """,
            events: outcome.events,
            properties: [property]
        )
    }

    /// The four registrations on `api`: three the hook makes, then the genuine app's.
    private func hookedEnrollment(
        on api: RawHTTP,
        google: AndroidAttestationCA,
        bank: AndroidAllowedApp
    ) async throws -> (events: [String], held: Bool) {
        let user = "alice-\(UUID().uuidString.prefix(6).lowercased())"
        _ = try await api.call(.createUser, json: ["username": user, "password": password])
        let signIn = try await api.call(.signInWithPassword, json: ["username": user, "password": password]).body
        let token = ((try? JSONSerialization.jsonObject(with: signIn) as? [String: Any])?["session_token"] as? String) ?? ""

        func register(_ key: SoftwareDeviceKey, chain: ((Data) throws -> [[UInt8]])?) async throws -> (status: Int, code: String?, reason: String?) {
            var body: [String: Any] = ["algorithm": "ES256", "public_key": Base64URL.encode(key.publicKey())]
            if let chain {
                let issued = try await api.call(.createAttestationChallenge, token: token).body
                let challenge =
                    Base64URL.decode(((try? JSONSerialization.jsonObject(with: issued) as? [String: Any])?["challenge"] as? String) ?? "") ?? Data()
                body["key_attestation"] = [
                    "format": "android-key", "challenge": Base64URL.encode(challenge),
                    "certificate_chain": try chain(challenge).map { Base64URL.encode(Data($0)) },
                ]
            }
            let answer = try await api.call(.startRegistration, object: body, token: token)
            let error = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? [String: Any]
            return (answer.status, error?["code"] as? String, error?["reason"] as? String)
        }
        let software = SoftwareDeviceKey.es256()
        let attacker = try AndroidAttestationCA(validity: Date().addingTimeInterval(-60)...Date().addingTimeInterval(3600))
        let noEvidence = try await register(software, chain: nil)
        let forged = try await register(software) { challenge in
            try attacker.chain(for: .init(software.p256!.publicKey), description: .genuine(.biometric, challenge: Array(challenge), app: bank))
        }
        let noBiometric = SoftwareDeviceKey.es256()  // stands for a Keystore key; the chain says how it was made
        let unprotected = try await register(noBiometric) { challenge in
            try google.chain(for: .init(noBiometric.p256!.publicKey), description: .genuine(.pin, challenge: Array(challenge), app: bank))
        }
        let genuine = SoftwareDeviceKey.es256()
        let honest = try await register(genuine) { challenge in
            try google.chain(for: .init(genuine.p256!.publicKey), description: .genuine(.biometric, challenge: Array(challenge), app: bank))
        }
        func line(_ answer: (status: Int, code: String?, reason: String?)) -> String {
            "\(answer.status) \(answer.code ?? "")\(answer.reason.map { " (\($0))" } ?? "")"
        }
        let events = [
            "hooked app registers a software key, no evidence → \(line(noEvidence))",
            "hooked app registers it with a chain from the attacker's own CA → \(line(forged))",
            "hooked app registers a Keystore key made without a biometric → \(line(unprotected))",
            "the genuine app registers its per-use biometric key in the TEE → \(line(honest))",
        ]
        let held =
            noEvidence.status == 403 && noEvidence.code == ErrorCode.attestationRequired.rawValue
            && forged.status == 403 && forged.reason == AttestationFailure.Reason.untrustedChain.rawValue
            && unprotected.status == 403 && unprotected.reason == AttestationFailure.Reason.notBiometricPerUse.rawValue
            && honest.status == 201
        return (events, held)
    }
}
