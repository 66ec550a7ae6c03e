import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The connections each client address holds, capped: one address's silent sockets cannot take
/// the descriptors every other client needs. (The total is capped by Hummingbird, which stops
/// accepting at ``ServerConfiguration/maxConnections``; the kernel's backlog then holds new
/// connections.)
final class ConnectionCounter: Sendable {
    /// Connections one address may hold at once.
    let perAddress: Int
    private let open = Mutex<[String: Int]>([:])
    private let refused: @Sendable () -> Void

    /// - Parameter refused: Called for each connection closed for going over the cap.
    init(perAddress: Int, refused: @escaping @Sendable () -> Void = {}) {
        self.perAddress = perAddress
        self.refused = refused
    }

    /// Counts a new connection from `address`; `false`, counting nothing, when the address
    /// already holds ``perAddress``.
    func opened(_ address: String) -> Bool {
        let admitted = open.withLock { open in
            guard open[address, default: 0] < perAddress else { return false }
            open[address, default: 0] += 1
            return true
        }
        if !admitted { refused() }
        return admitted
    }

    /// Counts a connection from `address` closed.
    func closed(_ address: String) {
        open.withLock { open in
            let left = open[address, default: 1] - 1
            open[address] = left > 0 ? left : nil
        }
    }
}

/// A child channel (HTTP/1.1 here) that first counts its connection against its client address's
/// cap and closes it at once when the address holds its share: before any byte is read, so a
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
