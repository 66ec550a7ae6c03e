import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive whole within the deadline.
///
/// The idle timeout only catches a client that goes silent; a slow client that trickles one byte
/// just under every idle period (slowloris) would hold its connection for ever. This handler gives
/// each request a total budget, counted from when the connection opened or the previous request
/// was fully received, until its last body byte: a request that has not arrived by then closes
/// the connection. Requests that arrive in time are untouched.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    // Hummingbird adds extra handlers after its HTTP/1 → HTTP types codec.
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            // This request arrived whole; the next one gets a fresh budget.
            arm(context)
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            loopBound.value.close(promise: nil)
        }
    }
}
