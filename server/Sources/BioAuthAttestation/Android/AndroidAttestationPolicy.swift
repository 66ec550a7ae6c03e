/// What an operator accepts of an Android key's attestation beyond what every key must show
/// (secure hardware, generated there, signing only, this app's alone, per-use biometric or
/// unlocked-device use).
package struct AndroidAttestationPolicy: Hashable, Sendable {
    /// The boot states accepted.
    package enum BootPolicy: String, Hashable, Sendable, CaseIterable {
        /// A locked bootloader that booted the device maker's software.
        case verified
        /// A locked bootloader that booted the device maker's or a user-installed, signed system
        /// (GrapheneOS, say).
        case selfSigned = "self-signed"
        /// Any boot state, an unlocked bootloader included: the key is still in secure hardware,
        /// but the operating system that asks it to sign may be anyone's.
        case any
    }

    /// The apps whose keys are accepted: package name and signing certificate.
    package var allowedApps: [AndroidAllowedApp]
    /// Refuse keys in the TEE; only StrongBox keys are accepted.
    package var requireStrongBox: Bool
    /// The boot states accepted.
    package var boot: BootPolicy

    /// A policy; by default StrongBox is not required and boot must be verified.
    package init(allowedApps: [AndroidAllowedApp], requireStrongBox: Bool = false, boot: BootPolicy = .verified) {
        self.allowedApps = allowedApps
        self.requireStrongBox = requireStrongBox
        self.boot = boot
    }
}

/// An app allowed to register device keys: its package name and the SHA-256 of its signing
/// certificate (`apksigner verify --print-certs` prints it; Play App Signing's key, not the upload
/// key, when Google signs the release).
package struct AndroidAllowedApp: Hashable, Sendable, CustomStringConvertible {
    /// `com.example.bank`.
    package var packageName: String
    /// 32 bytes.
    package var signingCertificateDigest: [UInt8]

    /// An allowed app from its parts.
    package init(packageName: String, signingCertificateDigest: [UInt8]) {
        self.packageName = packageName
        self.signingCertificateDigest = signingCertificateDigest
    }

    /// Reads `com.example.bank:<SHA-256 as 64 hex digits>` (colons between byte pairs allowed,
    /// as apksigner and keytool print them); nil when it is not that.
    package init?(_ text: String) {
        guard let separator = text.firstIndex(of: ":") else { return nil }
        let name = String(text[..<separator])
        let hex = text[text.index(after: separator)...].filter { $0 != ":" }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }),
            let digest = Hex.decode(hex), digest.count == 32
        else { return nil }
        self.init(packageName: name, signingCertificateDigest: digest)
    }

    /// `com.example.bank:<hex>`, as ``init(_:)`` reads it.
    package var description: String {
        packageName + ":" + Hex.encode(signingCertificateDigest)
    }
}
