import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// One host usually holds a whole IPv6 /64: the per-address limit counts it as one address.
@Suite("Per-address limit keys")
struct ClientAddressTests {
    @Test(
        "IPv6 addresses count by their /64; IPv4 and IPv4-mapped addresses by themselves",
        arguments: [
            ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
            ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
            ("[2001:db8:1:2::1]", "2001:db8:1:2::/64"),
            ("fe80::1%eth0", "fe80:0:0:0::/64"),
            ("::1", "0:0:0:0::/64"),
            ("::ffff:192.0.2.7", "192.0.2.7"),
            ("192.0.2.7", "192.0.2.7"),
            ("unknown", "unknown"),
            ("not:an:address", "not:an:address"),
        ]
    )
    func keys(address: String, key: String) {
        #expect(ClientAddress.limitKey(address) == key)
    }

    @Test("two addresses in one /64 share a budget; another /64 has its own")
    func slash64SharesBudget() async throws {
        try await TestServer.run(configure: {
            $0.requestsPerMinutePerAddress = 3
            $0.trustForwardedFor = true
        }) { server in
            func from(_ address: String) async throws -> HTTPResponse.Status {
                try await server.api.call(.get, "/health", headers: [.init("X-Forwarded-For")!: address]).status
            }
            for suffix in ["1", "2", "3"] {
                let status = try await from("2001:db8:aa:bb::\(suffix)")
                #expect(status == .ok)
            }
            #expect(try await from("2001:db8:aa:bb:ffff:ffff:ffff:ffff") == .tooManyRequests)
            #expect(try await from("2001:db8:aa:bc::1") == .ok)
        }
    }
}
