import NIOCore
import NIOHTTP1

/// Answers a connection over `ConnectionLimit` and ends it: as soon as it is open, a 503 with
/// `Retry-After` and `Connection: close` (encoded by NIO's `HTTPResponseEncoder`; the request
/// is never parsed — a client that trickles its head in gets the answer as soon as one that
/// sends it whole), then a lingering close: the output is closed after the response, and what
/// the client sends is read and discarded until it closes its side or `linger` passes (a full
/// close with the client's request unread would make the kernel reset the connection, which
/// can throw away the 503 before the client reads it).
///
/// One instance per refused connection, on its event loop, alone behind the encoder.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    /// What the client is told to wait before it tries again.
    static let retryAfterSeconds = 10

    private let limit: Int
    private let linger: TimeAmount
    private var answered = false
    private var timer: Scheduled<Void>?

    init(limit: Int, linger: TimeAmount) {
        self.limit = limit
        self.linger = linger
    }

    /// Sets up `channel` (just accepted, nothing read) to be refused.
    static func install(on channel: any Channel, limit: Int, linger: TimeAmount) throws {
        try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
        try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(limit: limit, linger: linger))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopTimer() }

    func channelActive(context: ChannelHandlerContext) {
        answer(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimer()
        context.fireChannelInactive()
    }

    /// The client's bytes are read and dropped: nothing it sends is answered.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// The client closed its side (or the server shuts down): the connection ends.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed {
            context.close(promise: nil)
        } else if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// A reset or any other error: nothing more is said; the connection ends.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answer(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let text = "The logger is serving \(limit) connections, its limit: try again in a few seconds.\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(text.utf8.count)")
        headers.add(name: "Retry-After", value: "\(Self.retryAfterSeconds)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: .serviceUnavailable, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: linger) {
            context.close(promise: nil)
        }
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }
}
