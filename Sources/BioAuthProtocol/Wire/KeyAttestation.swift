import Foundation

/// Hardware evidence for a new device key, sent with the registration's start
/// (`key_attestation`). Its `challenge` came from `POST /v1/biometric/attestation-challenges`
/// before the key was made.
public struct KeyAttestationEvidence: Codable, Sendable, Equatable {
    /// The evidence formats a server reads.
    public enum Format: String, Codable, Sendable, CaseIterable {
        /// Android Key Attestation: the certificate chain `KeyStore.getCertificateChain` returns
        /// for a key generated with `setAttestationChallenge(challenge)`.
        case androidKey = "android-key"
        /// Apple App Attest: an attestation (the App Attest key's first use) or an assertion over
        /// SHA-256 of ``KeyAttestationMessage``.
        case appleAppAttest = "apple-app-attest"
    }

    /// A ``Format`` raw value; kept as text so that an unknown one is answered with a clear error.
    public var format: String
    /// The attestation challenge the server issued.
    public var challenge: Base64URLBytes
    /// `android-key`: DER certificates, leaf first.
    public var certificateChain: [Base64URLBytes]?
    /// `apple-app-attest`: the App Attest key's id (SHA-256 of its public key).
    public var keyID: Base64URLBytes?
    /// `apple-app-attest`: the attestation object, the first time the server sees the key.
    public var attestation: Base64URLBytes?
    /// `apple-app-attest`: an assertion by a key the server already verified.
    public var assertion: Base64URLBytes?

    /// Android evidence: `chain` (DER, leaf first) for a key made with `challenge`.
    public static func androidKey(challenge: Data, chain: [Data]) -> KeyAttestationEvidence {
        KeyAttestationEvidence(
            format: Format.androidKey.rawValue,
            challenge: Base64URLBytes(challenge),
            certificateChain: chain.map(Base64URLBytes.init)
        )
    }

    /// App Attest evidence: the App Attest key `keyID`'s attestation or assertion.
    public static func appleAppAttest(challenge: Data, keyID: Data, attestation: Data? = nil, assertion: Data? = nil) -> KeyAttestationEvidence {
        KeyAttestationEvidence(
            format: Format.appleAppAttest.rawValue,
            challenge: Base64URLBytes(challenge),
            keyID: Base64URLBytes(keyID),
            attestation: attestation.map(Base64URLBytes.init),
            assertion: assertion.map(Base64URLBytes.init)
        )
    }

    /// Evidence from its parts.
    public init(
        format: String,
        challenge: Base64URLBytes,
        certificateChain: [Base64URLBytes]? = nil,
        keyID: Base64URLBytes? = nil,
        attestation: Base64URLBytes? = nil,
        assertion: Base64URLBytes? = nil
    ) {
        self.format = format
        self.challenge = challenge
        self.certificateChain = certificateChain
        self.keyID = keyID
        self.attestation = attestation
        self.assertion = assertion
    }

    enum CodingKeys: String, CodingKey {
        case format, challenge, attestation, assertion
        case certificateChain = "certificate_chain"
        case keyID = "key_id"
    }
}

/// `201` of `POST /v1/biometric/attestation-challenges`: the challenge to make a key with, and
/// how the server treats evidence.
public struct AttestationChallengeResponse: Codable, Sendable, Equatable {
    /// How a server treats device keys' hardware evidence (`--key-attestation`).
    public struct Mode: OpenVocabulary {
        /// The text on the wire.
        public let rawValue: String

        /// The value with this text, known to this version or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not looked at: send none (the challenge is not kept).
        public static let none = Self(rawValue: "none")
        /// Verified and recorded; a key without valid evidence still registers.
        public static let prefer = Self(rawValue: "prefer")
        /// A key registers only with valid evidence.
        public static let require = Self(rawValue: "require")

        /// The values this version knows.
        public static let allCases: [Self] = [.none, .prefer, .require]
    }

    /// Random bytes, single use.
    public var challenge: Base64URLBytes
    /// When the challenge expires.
    public var expiresAt: Date
    /// How the server treats evidence; under ``Mode/none`` an app spares its attestation service.
    public var mode: Mode

    /// Creates the body.
    public init(challenge: Data, expiresAt: Date, mode: Mode) {
        self.challenge = Base64URLBytes(challenge)
        self.expiresAt = expiresAt
        self.mode = mode
    }

    enum CodingKeys: String, CodingKey {
        case challenge, mode
        case expiresAt = "expires_at"
    }
}

/// What the server found of a registration's hardware evidence.
public struct KeyAttestationResult: Codable, Sendable, Equatable {
    /// Whether the evidence was verified, refused, or not given.
    public struct Verdict: OpenVocabulary {
        /// The text on the wire.
        public let rawValue: String

        /// The value with this text, known to this version or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// It verified under the server's policy.
        public static let verified = Self(rawValue: "verified")
        /// It was given and refused (`reason` says why); the server's policy let the key register.
        public static let refused = Self(rawValue: "refused")
        /// None was given; the server's policy let the key register.
        public static let absent = Self(rawValue: "absent")

        /// The values this version knows.
        public static let allCases: [Self] = [.verified, .refused, .absent]
    }

    /// The format given, if any.
    public var format: String?
    /// The verdict.
    public var verdict: Verdict
    /// The refusal's code (as the `attestation_refused` error's `reason`), when refused.
    public var reason: String?
    /// `TEE`, `StrongBox` or `Secure Enclave`, when verified.
    public var securityLevel: String?
    /// The app that made the key: an Android package or an App ID, when verified.
    public var app: String?

    /// Creates a result.
    public init(format: String?, verdict: Verdict, reason: String? = nil, securityLevel: String? = nil, app: String? = nil) {
        self.format = format
        self.verdict = verdict
        self.reason = reason
        self.securityLevel = securityLevel
        self.app = app
    }

    enum CodingKeys: String, CodingKey {
        case format, verdict, reason, app
        case securityLevel = "security_level"
    }
}
