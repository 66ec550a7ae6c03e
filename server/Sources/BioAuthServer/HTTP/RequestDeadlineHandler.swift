import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not arrived whole within the request timeout of its
/// head, whether or not a route reads the body.
///
/// The idle timeout closes a silent client, and a head trickled byte by byte never becomes an
/// HTTP part, so it looks silent too. A body trickled byte by byte does not: every byte is a part.
/// A route that reads the body would see it late, but most answers (`/health`, every 401, 404 and
/// 405) never read it, and the server then drains it before the connection's next request, for as
/// long as the client keeps trickling. So the deadline lives here, in the connection's pipeline,
/// just after HTTP decoding: each request head starts a timer, its end stops it, and a timer that
/// fires closes the connection outright (answering `Connection: close` would still drain the
/// rest). Real time, not the server's clock: this is about the network.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    /// A handler for one connection; `timeout` is `--request-timeout`.
    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
