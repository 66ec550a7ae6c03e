import Foundation
import SwiftASN1
import X509

/// Which attestations a relying party accepts.
package enum AttestationPolicy: Sendable {
    /// Ask for none (`attestation: "none"`) and accept any credential whose statement, if the
    /// client passed one on, verifies under its format's rules. Nothing is learned about the
    /// authenticator's make beyond its self-declared AAGUID.
    case none
    /// Ask for a direct attestation and accept only a statement whose certificate chain leads
    /// to one of `roots`, valid at the ceremony's time. Self and none attestation are refused.
    case direct(roots: [Certificate])

    /// The `attestation` conveyance preference the options carry.
    package var conveyance: String {
        switch self {
        case .none: "none"
        case .direct: "direct"
        }
    }
}

/// What an attestation statement proved about the authenticator (§6.5.3 "attestation types").
package enum AttestationTrustPath: Sendable, Equatable {
    /// `fmt` `none`: nothing.
    case none
    /// Self attestation: the credential key signed its own registration; proves possession only.
    case selfAttestation
    /// Basic, AttCA or anonymisation-CA attestation: `chain` (leaf first, as `x5c`) signed it;
    /// trusted only once the chain leads to a root the operator chose.
    case certificates([Certificate])
}

extension AttestationPolicy {
    /// The certificates of a PEM bundle (an operator's trust roots file), in order.
    package static func certificates(pem: String) throws -> [Certificate] {
        try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
    }
}
