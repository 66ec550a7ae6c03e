import BioAuthSimulator
import BioAuthTesting
import Crypto
import Foundation

/// The simulated phone's App Attest service, making Apple's formats with a test authority (the
/// server trusts its root in place of Apple's).
struct AppAttestMaker: AppAttestObjectMaker {
    let authority: AppAttestAuthority
    let appID: String

    func attestation(keyID: Data, publicKey: Data, clientDataHash: Data) throws -> Data {
        let key = try P256.Signing.PublicKey(x963Representation: publicKey)
        return Data(try authority.attestation(of: key, appID: appID, clientDataHash: Array(clientDataHash)))
    }

    func assertion(keyID: Data, privateKey: Data, counter: UInt32, clientDataHash: Data) throws -> Data {
        let key = try P256.Signing.PrivateKey(x963Representation: privateKey)
        return Data(try AppAttestAuthority.assertion(by: key, appID: appID, counter: counter, clientDataHash: Array(clientDataHash)))
    }
}
