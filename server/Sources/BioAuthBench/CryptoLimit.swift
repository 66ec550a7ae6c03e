import BioAuthProtocol
import BioAuthServer
import Crypto
import Foundation

/// The signature check's own ceiling on this machine.
enum CryptoLimit {
    /// P-256 ECDSA verifications per second with every core busy, through the same
    /// `DevicePublicKey.isValidSignature` the server calls on each biometric sign-in, over a
    /// message the size of a real one.
    static func p256VerificationsPerSecond(duration: Duration) async throws -> Double {
        let key = P256.Signing.PrivateKey()
        let message = try SignedMessage(
            ceremony: .authentication,
            relyingPartyID: "bench.example",
            registrationID: "reg_" + String(repeating: "0", count: 32),
            challenge: Data(count: 32)
        ).encoded()
        let publicKey = try DevicePublicKey(algorithm: .es256, bytes: key.publicKey.x963Representation)
        let signature = try DeviceSignature(algorithm: .es256, bytes: try key.signature(for: message).derRepresentation)

        return try await RateProbe.count(tasks: ProcessInfo.processInfo.activeProcessorCount, for: duration) { _ in
            // 32 per clock reading: one verification takes about 80 µs.
            (0..<32).filter { _ in publicKey.isValidSignature(signature, for: message) }.count
        }.perSecond
    }
}
