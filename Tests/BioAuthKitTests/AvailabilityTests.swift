@_spi(DeviceSeam) import BioAuthKit
@_spi(DeviceSeam) import BioAuthSimulator
import Foundation
import Testing

/// What an app asks before it shows a biometric sign-in switch: the sensor, and whether sign-in
/// can be turned on, or why not; never a prompt.
@Suite("Biometric availability")
struct AvailabilityTests {
    /// The availability a key store on `device` reports for ES256 (or `algorithm`), checked to take no prompt.
    private func availability(_ device: SimulatedDevice, algorithm: SignatureAlgorithm = .es256) -> BiometricAvailability {
        let prompts = device.promptCount
        let answer = DeviceKeyStore(service: "com.example.bank", backends: device.backends).availability(algorithm: algorithm)
        #expect(device.promptCount == prompts)
        return answer
    }

    @Test(
        "each sensor is named, and an enrolled one with a passcode and a Secure Enclave can be turned on",
        arguments: [BiometryKind.faceID, .touchID, .opticID]
    )
    func available(kind: BiometryKind) {
        #expect(availability(SimulatedDevice(biometry: kind)) == BiometricAvailability(biometry: kind, obstacle: nil))
    }

    @Test("each obstacle is named: no sensor, none enrolled, locked out, no passcode, no Secure Enclave, no entitlement")
    func obstacles() async throws {
        #expect(availability(SimulatedDevice(biometry: .none)).obstacle == .noBiometry)
        #expect(availability(SimulatedDevice(biometry: .touchID, enrolled: [])) == BiometricAvailability(biometry: .touchID, obstacle: .notEnrolled))
        #expect(availability(SimulatedDevice(passcode: nil)).obstacle == .noPasscode)
        let noEnclave = SimulatedDevice()
        noEnclave.setHasSecureEnclave(false)
        #expect(availability(noEnclave).obstacle == .noSecureEnclave)
        #expect(availability(noEnclave, algorithm: .ed25519).canEnable, "an Ed25519 key needs no Secure Enclave")
        let unsigned = SimulatedDevice()
        unsigned.setEntitlementMissing(true)
        #expect(availability(unsigned).obstacle == .missingEntitlement)

        let fixture = DeviceFixture()
        try await fixture.vault.store(DeviceFixture.secret, named: "token")
        for _ in 0..<5 {
            fixture.device.willAnswer(.presentUnenrolled)
            _ = try? await fixture.vault.read("token", prompt: "p")
        }
        #expect(availability(fixture.device).obstacle == .lockedOut)
    }

    @Test("without a Secure Enclave no key is attempted: secureEnclaveUnavailable, asked of the platform first")
    func noSecureEnclave() async throws {
        let fixture = DeviceFixture()
        fixture.device.setHasSecureEnclave(false)
        await #expect(throws: BioAuthError.secureEnclaveUnavailable) { try await fixture.keys.createKey(named: "k") }
        #expect(fixture.device.storedItemCount == 0)
        #expect(try await fixture.keys.createKey(named: "k", algorithm: .ed25519).publicKey.algorithm == .ed25519)
    }
}
