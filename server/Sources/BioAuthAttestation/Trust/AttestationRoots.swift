import BioAuthWebAuthn
import X509

/// The roots this package ships, each file beside its provenance in `Resources/`.
package enum AttestationRoots {
    /// Google's hardware attestation roots, the anchors of every genuine Android key attestation.
    package static let googleHardware: [Certificate] = load(PackageResources.google_attestation_roots_pem)
    /// Apple's App Attestation Root CA, the anchor of every App Attest attestation.
    package static let appleAppAttest: [Certificate] = load(PackageResources.apple_app_attestation_root_pem)

    private static func load(_ bytes: [UInt8]) -> [Certificate] {
        do {
            return try AttestationPolicy.certificates(pem: String(decoding: bytes, as: UTF8.self))
        } catch {
            // The files are part of the build; a test reads each.
            fatalError("a shipped attestation root does not parse: \(error)")
        }
    }
}
