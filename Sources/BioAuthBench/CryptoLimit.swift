import BioAuthProtocol
import Crypto
import Foundation

/// The signature check's own ceiling on this machine.
enum CryptoLimit {
    /// P-256 ECDSA verifications per second with every core busy, through the same
    /// `DevicePublicKey.isValidSignature` the server calls on each biometric sign-in, over a
    /// message the size of a real one.
    static func p256VerificationsPerSecond(duration: Duration) async throws -> Double {
        let key = P256.Signing.PrivateKey()
        let message = try SignedMessage(ceremony: .authentication, relyingPartyID: "bench.example",
                                        registrationID: "reg_" + String(repeating: "0", count: 32), challenge: Data(count: 32)).encoded()
        let publicKey = try DevicePublicKey(algorithm: .es256, bytes: key.publicKey.x963Representation)
        let signature = try DeviceSignature(algorithm: .es256, bytes: try key.signature(for: message).derRepresentation)

        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let verified = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                group.addTask {
                    var done = 0
                    while clock.now < deadline {
                        for _ in 0..<32 where publicKey.isValidSignature(signature, for: message) { done += 1 }
                    }
                    return done
                }
            }
            return await group.reduce(0, +)
        }
        return Double(verified) / start.duration(to: clock.now).seconds
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
