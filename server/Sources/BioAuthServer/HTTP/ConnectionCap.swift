import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections each client holds, capped: one client's silent sockets cannot take the
/// descriptors every other client needs. A client is its ``ClientAddress/limitKey(_:)``, as for
/// every other limit (an IPv6 /64 is one client). (The total is capped by Hummingbird, which
/// stops accepting at ``ServerConfiguration/maxConnections``; the kernel's backlog then holds new
/// connections.)
final class ConnectionCounter: Sendable {
    /// Connections one client may hold at once.
    let perClient: Int
    private let open = Mutex<[String: Int]>([:])
    private let refused: @Sendable () -> Void

    /// - Parameter refused: Called for each connection closed for going over the cap.
    init(perClient: Int, refused: @escaping @Sendable () -> Void = {}) {
        self.perClient = perClient
        self.refused = refused
    }

    /// The connections one client may hold: `configured`, at most a quarter of `total`, so no one
    /// client holds more than that share of the server. Behind a trusted proxy (`behindProxy`) every
    /// connection is the proxy's, and the proxy caps its clients: `configured` as it is.
    static func perClient(configured: Int, total: Int, behindProxy: Bool) -> Int {
        behindProxy ? configured : max(1, min(configured, total / 4))
    }

    /// Counts a new connection from `address`; `false`, counting nothing, when its client
    /// already holds ``perClient``.
    func opened(_ address: String) -> Bool {
        let client = ClientAddress.limitKey(address)
        let admitted = open.withLock { open in
            guard open[client, default: 0] < perClient else { return false }
            open[client, default: 0] += 1
            return true
        }
        if !admitted { refused() }
        return admitted
    }

    /// Counts a connection from `address` closed.
    func closed(_ address: String) {
        let client = ClientAddress.limitKey(address)
        open.withLock { open in
            let left = open[client, default: 1] - 1
            open[client] = left > 0 ? left : nil
        }
    }
}

/// A child channel (HTTP/1.1 here) that first counts its connection against its client's cap and
/// closes it at once when the client holds its share: before any byte is read, so a
/// refused connection holds its descriptor only for the moment of its accept.
struct CappedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let counter: ConnectionCounter

    /// The setup's failure for a connection over the cap (closed here: on the async accept path
    /// NIO drops a failed setup without closing its channel).
    struct OverCap: Error {}

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // The TCP peer: a client behind a trusted proxy counts as the proxy (raise the cap there).
        let address = channel.remoteAddress?.ipAddress ?? ""
        guard counter.opened(address) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(OverCap())
        }
        channel.closeFuture.whenComplete { _ in counter.closed(address) }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
