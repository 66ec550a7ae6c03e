/// How a server treats device keys' hardware evidence.
package enum KeyAttestationMode: String, Hashable, Sendable, CaseIterable {
    /// Not asked for, not looked at.
    case none
    /// Verified when given, recorded and shown; a key without valid evidence still registers.
    case prefer
    /// A key registers only with valid evidence.
    case require
}

/// Everything a server needs to judge a device key's evidence: the mode, and a verifier per
/// platform the operator allows apps of (none: that platform's evidence is refused).
package struct KeyAttestationPolicy: Sendable {
    /// How evidence counts.
    package var mode: KeyAttestationMode
    /// Android Key Attestation, when Android apps are allowed.
    package var android: AndroidKeyAttestationVerifier?
    /// App Attest, when iOS apps are allowed.
    package var appAttest: AppAttestVerifier?

    /// A policy from its parts.
    package init(mode: KeyAttestationMode, android: AndroidKeyAttestationVerifier? = nil, appAttest: AppAttestVerifier? = nil) {
        self.mode = mode
        self.android = android
        self.appAttest = appAttest
    }
}
