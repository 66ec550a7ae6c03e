import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// One IPv6 host holds a whole /64: its addresses together are one client for the connection
/// cap, as for every other limit, and no one client holds more than its share of the total.
@Suite("Connection share", .serialized)
struct ConnectionShareTests {
    /// Addresses of one /64 added to `lo` for the test (root, iproute2, IPv6 on): a random /64
    /// under fd00:b10a::/32, so concurrent runs never share one.
    struct IPv6Host {
        let addresses: [String]

        /// Whether this machine lets the test add addresses to `lo`.
        static var possible: Bool {
            getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
                && (try? String(contentsOfFile: "/proc/sys/net/ipv6/conf/lo/disable_ipv6", encoding: .utf8))?.hasPrefix("0") == true
        }

        /// `count` addresses of a new /64 on `lo`, removed when `body` returns.
        static func with<T>(_ count: Int, _ body: (IPv6Host) async throws -> T) async throws -> T {
            let prefix = "fd00:b10a:\(String(UInt16.random(in: 1...UInt16.max), radix: 16))::"
            let host = IPv6Host(addresses: (1...count).map { "\(prefix)\($0)" })
            defer { for address in host.addresses { try? ShellCommand.run("/usr/sbin/ip -6 addr del \(address)/128 dev lo") } }
            for address in host.addresses { try ShellCommand.run("/usr/sbin/ip -6 addr add \(address)/128 dev lo nodad") }
            return try await body(host)
        }
    }

    @Test(
        "five addresses of one IPv6 /64, 12 silent sockets each: the server holds the /64's share, and another /64's /health answers within a second",
        .enabled(if: IPv6Host.possible, "needs root, /usr/sbin/ip and IPv6 on lo to add addresses of one /64"),
        arguments: [
            // The per-client setting is the share.
            (["--max-connections", "32", "--max-connections-per-address", "8"], 8),
            // The setting is above a quarter of the total: the quarter is the share.
            (["--max-connections", "32", "--max-connections-per-address", "64"], 8),
        ]
    )
    func oneIPv6Host(settings: [String], share: Int) async throws {
        try await TestDatabase.current.withFreshDatabase { location in
            let server = try ServeCommandTests.launch(["serve", "--port", "0", "--host", "::1", "--database", location] + settings)
            defer { server.process.terminate() }
            let port = try await server.waitForPort()
            try await IPv6Host.with(5) { host in
                var sockets: [RawSocket] = []
                for address in host.addresses {
                    for _ in 0..<12 { sockets.append(try RawSocket(port: port, from: address, to: "::1")) }
                }
                // Every socket past the /64's share is closed as it is accepted; the rest stay silent and open.
                let deadline = ContinuousClock.now + .seconds(10)
                while sockets.filter({ !$0.isClosedByPeer }).count > share, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(sockets.filter { !$0.isClosedByPeer }.count == share, "the /64 holds its share")
                let start = ContinuousClock.now
                let other = try RawSocket(port: port, from: "::1", to: "::1")
                other.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let answer = String(decoding: other.readUntilClosed() ?? Data(), as: UTF8.self)
                let took = ContinuousClock.now - start
                #expect(answer.hasPrefix("HTTP/1.1 200") && took < .seconds(1), "::1 after \(took): \(answer)")
            }
        }
    }
}
