import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

@Suite("Device keys: ES256 in the Secure Enclave, Ed25519 as a protected item")
struct DeviceKeyTests {
    private let message = SignedMessage(
        ceremony: .authentication,
        relyingPartyID: "bank.example",
        registrationID: "reg_x",
        challenge: Data(repeating: 7, count: 32)
    )

    @Test("ES256: creating never prompts, signing prompts once, the DER signature verifies", arguments: [SignatureAlgorithm.es256, .ed25519])
    func signAndVerify(algorithm: SignatureAlgorithm) async throws {
        let fixture = DeviceFixture()
        let key = try await fixture.keys.createKey(named: "device", algorithm: algorithm)
        #expect(fixture.device.promptCount == 0)
        #expect(key.algorithm == algorithm)
        fixture.device.willAnswer(.present("owner"))
        let signature = try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "Sign in")
        #expect(fixture.device.promptCount == 1)
        let parsed = try DeviceSignature(algorithm: algorithm, bytes: signature)
        #expect(key.publicKey.isValidSignature(parsed, for: try message.encoded()))
        #expect(try await fixture.keys.key(named: "device") == key)
    }

    @Test("public key in the contract's encodings: X9.63 / raw, and SubjectPublicKeyInfo")
    func publicKeyEncodings() async throws {
        let fixture = DeviceFixture()
        let es = try await fixture.keys.createKey(named: "es")
        #expect(es.publicKey.canonicalBytes.count == 65 && es.publicKey.canonicalBytes.first == 0x04)
        #expect(try DevicePublicKey(algorithm: .es256, bytes: es.publicKey.subjectPublicKeyInfo) == es.publicKey)
        let ed = try await fixture.keys.createKey(named: "ed", algorithm: .ed25519)
        #expect(ed.publicKey.canonicalBytes.count == 32)
        #expect(try DevicePublicKey(algorithm: .ed25519, bytes: ed.publicKey.subjectPublicKeyInfo) == ed.publicKey)
    }

    @Test("enrollment change destroys a biometryCurrentSet key: biometryChanged", arguments: [SignatureAlgorithm.es256, .ed25519])
    func enrollmentChangeInvalidatesKey(algorithm: SignatureAlgorithm) async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "device", algorithm: algorithm)
        fixture.device.enroll("intruder")
        #expect(await fixture.keys.enrollmentChanged(since: "device"))
        #expect(await fixture.keys.containsKey(named: "device") == false)
        fixture.device.willAnswer(.present("intruder"))
        #expect(await caught { try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p") } == .biometryChanged)
    }

    @Test("a biometryAny key survives an enrollment change")
    func biometryAnyKeySurvives() async throws {
        let fixture = DeviceFixture()
        let key = try await fixture.keys.createKey(named: "device", policy: .anyBiometrics)
        fixture.device.enroll("second")
        fixture.device.willAnswer(.present("second"))
        let signature = try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p")
        #expect(key.publicKey.isValidSignature(try DeviceSignature(algorithm: .es256, bytes: signature), for: try message.encoded()))
    }

    @Test("creating a key again replaces it (delete + create), and the old public key is gone")
    func createReplaces() async throws {
        let fixture = DeviceFixture()
        let first = try await fixture.keys.createKey(named: "device")
        let second = try await fixture.keys.createKey(named: "device")
        #expect(first.publicKey != second.publicKey)
        fixture.device.willAnswer(.present("owner"))
        let signature = try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p")
        #expect(second.publicKey.isValidSignature(try DeviceSignature(algorithm: .es256, bytes: signature), for: try message.encoded()))
        #expect(fixture.device.promptCount == 1)
    }

    @Test("canceling the signing prompt: userCanceled; deleting the key: itemNotFound")
    func cancelAndDelete() async throws {
        let fixture = DeviceFixture()
        _ = try await fixture.keys.createKey(named: "device")
        fixture.device.willAnswer(.cancel)
        #expect(await caught { try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p") } == .userCanceled)
        await fixture.keys.deleteKey(named: "device")
        #expect(await caught { try await fixture.keys.sign(message, withKeyNamed: "device", prompt: "p") } == .itemNotFound)
    }
}
