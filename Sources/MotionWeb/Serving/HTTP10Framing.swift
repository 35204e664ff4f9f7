import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Answers an HTTP/1.0 request as HTTP/1.0 allows: HTTP/1.0 has no chunked transfer coding
/// (RFC 9112 §7: a server must not send it to a 1.0 client), so a body whose length is not
/// known ahead (a wide CSV, a GPX, the events stream) is delimited by closing the
/// connection, and one whose length is known keeps its `Content-Length`. Either way the
/// connection closes after the response (`Connection: close`; 1.0 keep-alive is not offered).
///
/// Hummingbird's HTTP types carry no version, so every response was written as HTTP/1.1 and
/// NIO's encoder framed a body without a length as chunked, and a 1.0 connection was kept
/// open after it. This handler sits right before Hummingbird's conversion to those types
/// (`HTTP1ToHTTPServerCodec`), where parts are still NIO's, with their version: a 1.0
/// request's head is passed on with `Connection: close` (so Hummingbird ends the connection
/// after answering it, closing its output), and its response head is written as HTTP/1.0,
/// which NIO's encoder never frames as chunked. One instance per connection, on its event
/// loop.
final class HTTP10Framing: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request read and not yet answered (a final response head not yet
    /// written) is HTTP/1.0 or older, oldest first (pipelined requests are answered in order).
    private var oneZero = CircularBuffer<Bool>()

    /// Adds a new instance to `channel`'s pipeline right before `HTTP1ToHTTPServerCodec`
    /// (on the channel's event loop, before the first byte is read).
    static func install(on channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
        try pipeline.addHandler(HTTP10Framing(), position: .before(codec))
    }

    static func isOneZero(_ version: HTTPVersion) -> Bool {
        version.major < 1 || (version.major == 1 && version.minor == 0)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let old = Self.isOneZero(head.version)
        oneZero.append(old)
        if old { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An informational (1xx) head comes before the final one of the same request.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200,
              let old = oneZero.popFirst() else {
            context.write(data, promise: promise)
            return
        }
        if old {
            head.version = .http1_0
            head.headers.remove(name: "transfer-encoding")
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
