import Foundation
import Hummingbird

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who a request or connection counts against for every per-client limit: requests per minute,
/// connections (``ConnectionCounter``) and hashes (``HashingBudget``).
enum ClientAddress {
    /// The limiter's key for an address: an IPv4 address as it is (also when it arrives
    /// IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address as its /64 — one host normally holds a
    /// whole /64 and could otherwise rotate through 2^64 addresses — and anything else (an
    /// unparsable `X-Forwarded-For` entry) as its text.
    static func limitKey(_ address: String) -> String {
        var text = address
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var ipv6 = in6_addr()
        guard text.contains(":"), inet_pton(AF_INET6, text, &ipv6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let prefix = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return prefix.joined(separator: ":") + "::/64"
    }

    /// The limiter's key for `request`'s client: the TCP peer, or (only when `trustForwardedFor`)
    /// the last `X-Forwarded-For` entry, which the trusted proxy itself appended.
    static func limitKey(of request: Request, context: BioAuthRequestContext, trustForwardedFor: Bool) -> String {
        if trustForwardedFor, let forwarded = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return limitKey(last)
        }
        return limitKey(context.remoteAddress ?? "unknown")
    }
}
