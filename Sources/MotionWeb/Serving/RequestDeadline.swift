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
/// A response counts as over once its last byte was handed to the socket; the kernel may
/// still hold much of it for a slow client. So a deadline that passes while the connection
/// is idle after a response closes it lingeringly (`linger(_:)`): the output first, so the
/// FIN follows what the kernel holds, then input is read and discarded until the client
/// closes or a second timeout passes. A deadline that passes while a request is coming in
/// (or before any) closes at once.
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
    /// The time a lingering close reads and discards before closing fully.
    private let lingerTimeout: TimeAmount
    /// The output is closed; input is read and dropped, never passed on.
    private var lingering = false

    /// What happens, for tests: a response's last byte went to the socket, the deadline
    /// closed the connection at once (after how many responses), or it began a lingering close.
    enum Event: Sendable, Equatable { case responseWritten, closed(responses: Int), lingering }
    private let onEvent: (@Sendable (Event) -> Void)?

    init(timeout: Duration, linger: Duration? = nil, onEvent: (@Sendable (Event) -> Void)? = nil) {
        self.timeout = TimeAmount(timeout)
        self.lingerTimeout = TimeAmount(linger ?? timeout)
        self.onEvent = onEvent
    }

    /// Waiting for the client: a request is coming in, or every request has its response.
    private var waiting: Bool { midRequest || requests <= responses }

    private func update(_ context: ChannelHandlerContext) {
        guard !lingering else { return }
        if !waiting {
            timer?.cancel()
            timer = nil
        } else if timer == nil, context.channel.isActive {
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                timer = nil
                guard waiting else { return }
                if midRequest || responses == 0 {
                    context.close(promise: nil)
                    onEvent?(.closed(responses: responses))
                } else {
                    linger(context)
                    onEvent?(.lingering)
                }
            }
        }
    }

    /// The lingering close (Apache's `lingering_close`): idle after a response, the
    /// connection's output is closed (FIN after whatever the kernel still holds for the
    /// client), and what the client sends from then on is read and discarded until it closes
    /// its side or `lingerTimeout` passes. Closing outright made the kernel answer a request
    /// the client pipelined meanwhile with RST, which threw away the end of a download the
    /// client had not read yet.
    private func linger(_ context: ChannelHandlerContext) {
        lingering = true
        context.close(mode: .output, promise: nil)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: lingerTimeout) { [self] in
            timer = nil
            context.close(promise: nil)
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

    /// While lingering, the client's closing of its side ends the connection, and errors
    /// (a request cut off, garbage) are not passed on: nothing is answered any more.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if lingering, let e = event as? ChannelEvent, e == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !lingering else { return }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering else { return }
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
            onEvent?(.responseWritten)
            update(context)
        }
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(data, promise: written)
    }
}
