import Foundation
import NIOSSL

/// What a PostgreSQL URL's `sslmode` (and `sslrootcert`) ask for, and the TLS settings that give it.
///
/// | sslmode | TLS | certificate | host name |
/// |---|---|---|---|
/// | `disable` | never (plain text, only when asked) | — | — |
/// | `prefer`, `allow` | if the server offers it, else plain text: **loopback hosts only** | checked | checked |
/// | `require` | always | checked against the trust roots | checked |
/// | `verify-ca` | always | checked against the trust roots | not checked |
/// | `verify-full` | always | checked against the trust roots | checked |
/// | (none) | loopback host: as `prefer`; any other host: as `verify-full` | | |
///
/// The trust roots are the file `sslrootcert` names, else the system's. Unlike libpq, `require`
/// does verify the certificate: an unverified TLS connection is no defence against someone on
/// the path. A non-loopback host never gets plain text unless `sslmode=disable` says so, so a
/// missing or mistyped setting fails closed.
struct PostgresTLSPolicy: Sendable, Equatable {
    /// Whether and how TLS is used.
    enum Mode: Sendable, Equatable {
        case plain, preferred, required
    }

    let mode: Mode
    /// Whether the certificate must name the host (`verify-ca` checks only the chain).
    let checksHostName: Bool
    /// The CA file, when not the system's roots.
    let rootCertificateFile: String?

    /// Why a URL's TLS settings cannot be used.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    init(host: String, sslmode: String?, rootCertificateFile: String?) throws {
        let loopback = Self.isLoopback(host)
        self.rootCertificateFile = rootCertificateFile
        switch sslmode ?? (loopback ? "prefer" : "verify-full") {
        case "disable":
            (mode, checksHostName) = (.plain, true)
        case "prefer", "allow":
            guard loopback else {
                throw Refusal(
                    description: "sslmode=\(sslmode ?? "prefer") may fall back to plain text, which is refused for a host that is not loopback: "
                        + "use sslmode=verify-full (or verify-ca, require), or sslmode=disable to ask for plain text"
                )
            }
            (mode, checksHostName) = (.preferred, true)
        case "require", "verify-full":
            (mode, checksHostName) = (.required, true)
        case "verify-ca":
            (mode, checksHostName) = (.required, false)
        case let other:
            throw Refusal(description: "sslmode \(other) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        if let rootCertificateFile, !FileManager.default.isReadableFile(atPath: rootCertificateFile) {
            throw Refusal(description: "sslrootcert \(rootCertificateFile) cannot be read")
        }
    }

    /// The TLS client settings for this policy.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = checksHostName ? .fullVerification : .noHostnameVerification
        if let rootCertificateFile { configuration.trustRoots = .file(rootCertificateFile) }
        return configuration
    }

    /// Whether `host` is this machine: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
