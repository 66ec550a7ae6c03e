import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to the loopback test server, for clients no HTTP library would be: ones
/// that stall, send garbage, or never finish a request.
/// A socket may be written by one task while another reads it: the kernel orders both.
final class RawSocket: @unchecked Sendable {
    private let fd: Int32

    /// Connects to the loopback server on `port` at `host` (127.0.0.1, or an IPv6 address such as
    /// ::1), from `source` (another local address of the same family, such as 127.0.0.2, is
    /// another client) when given.
    init(port: Int, from source: String? = nil, to host: String = "127.0.0.1") throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        #if canImport(Glibc)
        fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let source {
            guard Self.withAddress(source, port: 0, { bind(fd, $0, $1) }) == 0 else {
                close(fd)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        guard Self.withAddress(host, port: port, { connect(fd, $0, $1) }) == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        // A read waits at most 20 s: a bound for a broken server, never the thing under test.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Calls `body` with `address` (IPv4 or IPv6) and `port` as a socket address and its length.
    private static func withAddress(_ address: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        if address.contains(":") {
            var ipv6 = sockaddr_in6()
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, address, &ipv6.sin6_addr) == 1 else { return -1 }
            return withUnsafePointer(to: &ipv6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var ipv4 = sockaddr_in()
        ipv4.sin_family = sa_family_t(AF_INET)
        ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
        ipv4.sin_addr.s_addr = inet_addr(address)
        return withUnsafePointer(to: &ipv4) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends everything; `false` once the connection is gone (the peer closed or reset it).
    @discardableResult
    func send(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Sends `byte` every 100 ms, never idle long enough for a timeout of 400 ms, at most
    /// `limit` times (about `limit` / 10 seconds); whether the server hung up first. The caller
    /// picks a limit that cannot complete its request, so only the server can end this early,
    /// however slowly a loaded machine runs it.
    func trickle(_ byte: String, limit: Int = 600) async throws -> Bool {
        for _ in 0..<limit {
            guard send(byte) else { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Whether the server has closed (or reset) the connection, without waiting or reading.
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Half-closes: the server reads end of input.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Everything until the server closes the connection; nil if it is still open after the bound.
    func readUntilClosed() -> Data? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return received }
            if count < 0 { return errno == EINTR ? received : (errno == ECONNRESET ? received : nil) }
            received.append(contentsOf: buffer[0..<count])
        }
    }
}
