import NIOCore
import NIOHTTP1

/// Answers a connection over `ConnectionLimit` and ends it: a 503 with `Retry-After` and
/// `Connection: close` (encoded by NIO's `HTTPResponseEncoder`; the request is not parsed),
/// then a lingering close: the output is closed after the response, and what the client
/// sends is read and discarded until it closes its side or `linger` passes (a full close
/// with the client's request unread would make the kernel reset the connection, which can
/// throw away the 503 before the client reads it).
///
/// The answer waits only for the request's method — its first byte, five for `HEAD ` — as
/// a response to HEAD has no body (RFC 9110 §9.3.2): a HEAD gets the headers a GET gets
/// (Content-Length included) and no body; any other method also gets the plain-text reason.
/// A client that has not told its method within `methodWait` (silent, or trickling its
/// first bytes in) is answered then without a body (`Content-Length: 0`), right whatever
/// it sends later.
///
/// One instance per refused connection, on its event loop, alone behind the encoder.
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    /// What the client is told to wait before it tries again.
    static let retryAfterSeconds = 10

    /// What the first bytes of a request say about its method.
    enum Method: Equatable { case head, other }

    private let limit: Int
    private let linger: TimeAmount
    /// How long a connection is given to send the first bytes of its request (its method).
    private let methodWait: TimeAmount
    private var answered = false
    /// The request's first bytes, kept until they tell its method.
    private var start: [UInt8] = []
    /// The client closed its side before it was answered: close fully once it is.
    private var inputClosed = false
    /// The wait for the method, then the lingering close.
    private var timer: Scheduled<Void>?

    init(limit: Int, linger: TimeAmount, methodWait: TimeAmount) {
        self.limit = limit
        self.linger = linger
        self.methodWait = methodWait
    }

    /// The method the first bytes of a request start with, nil while they may still be
    /// `HEAD ` (none yet, or a prefix of it).
    static func method(_ start: [UInt8]) -> Method? {
        let head = Array("HEAD ".utf8)
        guard !start.isEmpty else { return nil }
        if start.count >= head.count { return Array(start.prefix(head.count)) == head ? .head : .other }
        return Array(head.prefix(start.count)) == start ? nil : .other
    }

    /// Sets up `channel` (just accepted, nothing read) to be refused.
    static func install(on channel: any Channel, limit: Int, linger: TimeAmount, methodWait: TimeAmount) throws {
        try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
        try channel.pipeline.syncOperations.addHandler(ConnectionRefusal(limit: limit, linger: linger, methodWait: methodWait))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitForMethod(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopTimer() }

    func channelActive(context: ChannelHandlerContext) {
        waitForMethod(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimer()
        context.fireChannelInactive()
    }

    /// The client's bytes are read and dropped once they told its method: nothing it sends
    /// is answered but by the one 503.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var bytes = unwrapInboundIn(data)
        if let more = bytes.readBytes(length: min(bytes.readableBytes, 5 - start.count)) { start += more }
        if let method = Self.method(start) { answer(context, method: method) }
    }

    /// The client closed its side: answered with what it said, if not yet; the connection ends.
    /// The server shuts down: the connection ends.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed {
            if answered {
                context.close(promise: nil)
            } else {
                inputClosed = true
                answer(context, method: Self.method(start))
            }
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

    /// Starts the wait for the request's method (once).
    private func waitForMethod(_ context: ChannelHandlerContext) {
        guard !answered, timer == nil else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: methodWait) { [self] in
            answer(context, method: Self.method(start))
        }
    }

    /// The 503; its reason as the body for a `method` known not to be HEAD.
    private func answer(_ context: ChannelHandlerContext, method: Method?) {
        guard !answered else { return }
        answered = true
        stopTimer()
        let text = "The logger is serving \(limit) connections, its limit: try again in a few seconds.\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        // A HEAD is told the length its GET gets; a client not heard from in time gets a
        // response with an empty body, right for either.
        headers.add(name: "Content-Length", value: method == nil ? "0" : "\(text.utf8.count)")
        headers.add(name: "Retry-After", value: "\(Self.retryAfterSeconds)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: .serviceUnavailable, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if method == .other { context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        let closeFully = inputClosed
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(mode: closeFully ? .all : .output, promise: nil)
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
