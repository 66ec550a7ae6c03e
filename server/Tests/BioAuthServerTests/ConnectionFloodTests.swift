import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// One address's silent sockets against a server at the common descriptor limit (systemd's 1,024
/// for services). Run alone (`./scripts/test` does): it holds over a thousand sockets in this
/// process, and Foundation's `Process.run()` misbehaves past about 1,350 open descriptors, so no
/// other test may start a process meanwhile.
@Suite("Connection flood", .serialized)
struct ConnectionFloodTests {
    /// Sockets the flood holds from 127.0.0.1: past the server's descriptor limit.
    static let flood = 1_100

    /// An HTTP/1.1 GET of `path` from `source`, read until the server closes; the answer and the
    /// seconds it took.
    private func get(_ path: String, port: Int, from source: String) throws -> (answer: String, seconds: Double) {
        let start = ContinuousClock.now
        let socket = try RawSocket(port: port, from: source)
        socket.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let answer = socket.readUntilClosed().map { String(decoding: $0, as: UTF8.self) } ?? ""
        let elapsed = ContinuousClock.now - start
        return (answer, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test(
        "1,100 silent sockets from one address, under a 1,024-descriptor limit: another address is answered within a second, flood after flood, and the process lives"
    )
    func floodFromOneAddress() async throws {
        try #require(DescriptorBudget.raisedToHardLimit() >= Self.flood + 300, "this test process needs room for the flood's sockets")
        try await TestDatabase.current.withFreshDatabase { location in
            let server = try ServeCommandTests.launch(
                ["serve", "--port", "0", "--database", location, "--max-connections-per-address", "32"],
                launcher: ["/usr/bin/prlimit", "--nofile=1024"]
            )
            defer { server.process.terminate() }
            let port = try await server.waitForPort()
            let metricsPort = try await server.waitForMetricsPort()
            for cycle in 1...3 {
                var sockets: [RawSocket] = []
                for _ in 0..<Self.flood { sockets.append(try RawSocket(port: port)) }
                // Every socket past the address's share is closed as it is accepted; the rest stay silent and open.
                let deadline = ContinuousClock.now + .seconds(20)
                while sockets.filter({ !$0.isClosedByPeer }).count > 32, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(sockets.filter { !$0.isClosedByPeer }.count == 32, "cycle \(cycle): the address holds exactly its share")
                let other = try get("/health", port: port, from: "127.0.0.2")
                #expect(
                    other.answer.hasPrefix("HTTP/1.1 200") && other.answer.hasSuffix(#"{"status":"ok"}"#) && other.seconds < 1,
                    "cycle \(cycle): 127.0.0.2 after \(other.seconds) s: \(other.answer)"
                )
                #expect(server.process.isRunning, "cycle \(cycle): \(server.stderr.suffix(2000))")
                sockets.removeAll()
                try await Task.sleep(for: .milliseconds(200))
            }
            let refused =
                try get("/metrics", port: metricsPort, from: "127.0.0.1").answer.split(separator: "\n")
                .first { $0.hasPrefix("bioauth_connections_refused_total ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            #expect(refused >= Double(3 * (Self.flood - 32)), "refused \(refused)")
            #expect(server.process.isRunning)
            #expect(!server.stderr.contains("workq") && !server.stderr.contains("Too many open files"), "\(server.stderr.suffix(2000))")
        }
    }
}
