import Foundation
import X509

/// Google's attestation status list (https://android.googleapis.com/attestation/status), as a
/// file the operator refreshes: `{"entries": {"<serial>": {"status": "REVOKED" | "SUSPENDED",
/// "reason": ...}}}`, each serial the certificate's serial number in lowercase hexadecimal without
/// leading zeros. A suspended certificate is refused as a revoked one is.
package struct AndroidRevocationList: Hashable, Sendable {
    /// The serials listed, as the file spells them.
    package let serials: Set<String>

    /// An empty list.
    package init() { serials = [] }

    /// Serials as the file spells them.
    package init(serials: Set<String>) { self.serials = serials }

    /// Reads the status list's JSON; throws when it is not that shape.
    package init(json: Data) throws {
        struct StatusList: Decodable {
            struct Entry: Decodable { let status: String }
            let entries: [String: Entry]
        }
        let list = try JSONDecoder().decode(StatusList.self, from: json)
        serials = Set(list.entries.keys.map { $0.lowercased() })
    }

    /// Whether `certificate` is listed.
    package func lists(_ certificate: Certificate) -> Bool {
        lists(certificate.serialNumber)
    }

    /// Whether a certificate with `serial` is listed.
    package func lists(_ serial: Certificate.SerialNumber) -> Bool {
        serials.contains(Self.key(serial))
    }

    /// Java's `BigInteger.toString(16)` of the serial: lowercase, no leading zeros.
    static func key(_ serial: Certificate.SerialNumber) -> String {
        let trimmed = Hex.encode(serial.bytes).drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
