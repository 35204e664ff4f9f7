import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request: whenever the server is
/// waiting for one — from the connection's start, and from the end of each response — the
/// whole request (head and body) must have arrived within `timeout`, or the connection is
/// closed. While a response is being written there is no deadline: a long download to a
/// slow client and the events stream, whose client sends nothing meanwhile, are never cut
/// by it (a stalled download is `StallGuard`'s business).
///
/// It replaces Hummingbird's `idleTimeout` (120 s here before), which counts decoded parts
/// only: a head trickling in byte by byte yields none, so it was closed 120 s after the
/// connection began; each body part restarted it, so a body sent one byte every few
/// seconds held a connection forever.
///
/// A response counts as over once its last byte was handed to the socket (the kernel
/// delivers what it still holds before the FIN of a close).
///
/// One instance per connection, on its event loop, between the HTTP codec and Hummingbird's
/// connection state handler (`HTTP1Channel.Configuration.additionalChannelHandlers`).
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    /// Request heads read, responses whose last byte went to the socket, and whether a head
    /// has been read but not yet its request's end.
    private var requests = 0, responses = 0, midRequest = false
    private var timer: Scheduled<Void>?

    init(timeout: Duration) { self.timeout = TimeAmount(timeout) }

    /// Waiting for the client: a request is coming in, or every request has its response.
    private var waiting: Bool { midRequest || requests <= responses }

    private func update(_ context: ChannelHandlerContext) {
        if !waiting {
            timer?.cancel()
            timer = nil
        } else if timer == nil, context.channel.isActive {
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                timer = nil
                if waiting { context.close(promise: nil) }
            }
        }
    }

    func handlerAdded(context: ChannelHandlerContext) { update(context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        update(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requests += 1
            midRequest = true
        case .body:
            break
        case .end:
            midRequest = false
        }
        update(context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        // A response is over when its last byte has gone to the socket, not when its end is
        // queued behind a megabyte the client has yet to take: a close then would drop that.
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenSuccess { [self] in
            responses += 1
            update(context)
        }
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(data, promise: written)
    }
}
