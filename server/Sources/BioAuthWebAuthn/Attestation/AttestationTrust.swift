import Foundation
import SwiftASN1
import X509

extension AttestationPolicy {
    /// Decides whether what the statement proved is enough (§7.1 steps 24–25): under `.none`
    /// anything that verified is; under `.direct` the chain must lead to one of the roots, every
    /// certificate valid at `now`.
    func accept(_ path: AttestationTrustPath, now: Date) async throws(WebAuthnError) {
        guard case .direct(let roots) = self else { return }
        guard case .certificates(let chain) = path else {
            throw WebAuthnError(.attestationNotTrusted, "self or none attestation where a certified authenticator is required")
        }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(validationTime: now)
            AttestationCertificatePolicy()
        }
        let result = await verifier.validate(leaf: chain[0], intermediates: CertificateStore(chain.dropFirst()))
        guard case .validCertificate = result else {
            var reasons: [String] = []
            if case .couldNotValidate(let failures) = result { reasons = failures.map { "\($0.policyFailureReason)" } }
            throw WebAuthnError(
                .attestationNotTrusted,
                "the attestation chain does not lead to a configured root at \(now)"
                    + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
            )
        }
    }
}

/// The extensions a TPM attestation certificate marks critical: the subject alternative name
/// naming the TPM and the extended key usage, which the format's own checks
/// (``TPMAttestation/checkAIKCertificate(_:aaguid:)``) enforce, and the certificate policies
/// (Windows Hello's AIK certificates mark them critical). A relying party that requires no
/// particular policy accepts any (RFC 5280 §6.1 with the initial policy set any-policy), which
/// is what enforcing them means here.
private struct AttestationCertificatePolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.subjectAlternativeName, .X509ExtensionID.extendedKeyUsage, [2, 5, 29, 32],
    ]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        .meetsPolicy
    }
}
