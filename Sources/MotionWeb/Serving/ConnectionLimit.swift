import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The cap on connections open at once (`WebConfiguration.maxConnections`). Each open
/// connection costs memory (socket buffers, the HTTP codec, a task), and the request deadline
/// lets a silent one live 30 s: without a cap a LAN client opening thousands could take a
/// Pi Zero's 512 MB. A connection over the cap is answered 503 with `Retry-After` as soon as
/// its method is known, without its request being read further (`ConnectionRefusal`), and
/// closed; refusals are counted and logged at most once a minute.
///
/// Taken when a connection is accepted (on its event loop, before any byte is read) and
/// given back when it closes; atomics, so connections on any event loop share it.
final class ConnectionLimit: Sendable {
    /// What happens, for tests: a served connection closed (leaving `open`), or one was refused.
    enum Event: Sendable, Equatable { case closed(open: Int), refused(total: Int) }

    let maximum: Int
    private let open = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let log: Logger
    private let onEvent: (@Sendable (Event) -> Void)?
    /// Refusals not yet logged, and when the last line was logged.
    private let logged = Mutex<(unlogged: Int, last: ContinuousClock.Instant?)>((0, nil))
    /// At most one log line about refusals per this long.
    static let logInterval: Duration = .seconds(60)

    init(maximum: Int, log: Logger, onEvent: (@Sendable (Event) -> Void)?) {
        self.maximum = maximum
        self.log = log
        self.onEvent = onEvent
    }

    /// Connections refused since the server started.
    var refusedTotal: Int { refused.load(ordering: .relaxed) }

    /// Takes a place for `channel`, given back when it closes; false (counted, maybe logged)
    /// when every place is taken.
    func admit(_ channel: any Channel) -> Bool {
        let before = open.add(1, ordering: .relaxed).oldValue
        guard before < maximum else {
            open.subtract(1, ordering: .relaxed)
            noteRefusal(channel)
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in
            let left = open.subtract(1, ordering: .relaxed).newValue
            onEvent?(.closed(open: left))
        }
        return true
    }

    private func noteRefusal(_ channel: any Channel) {
        let total = refused.add(1, ordering: .relaxed).newValue
        let now = ContinuousClock.now
        let due: Int? = logged.withLock { state in
            state.unlogged += 1
            if let last = state.last, now - last < Self.logInterval { return nil }
            defer { state = (0, now) }
            return state.unlogged
        }
        if let due {
            log.warning("refused connections over the limit of \(maximum) open at once (web.max_connections); each got 503",
                        metadata: ["refused": "\(due)", "refusedSinceStart": "\(total)",
                                   "client": "\(channel.remoteAddress?.ipAddress ?? "unknown")"])
        }
        onEvent?(.refused(total: total))
    }
}

/// Hummingbird's HTTP/1 child channel behind `ConnectionLimit`: a connection within the
/// limit gets the HTTP pipeline (with `HTTP10Framing`) and is served as `HTTP1Channel`
/// serves it; one over it gets only NIO's response encoder and `ConnectionRefusal`, and no
/// task.
struct LimitedHTTP1Channel: ServerChildChannel {
    /// A connection: the async channel that serves it, or nil when it was refused.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let served: HTTP1Channel.Value?
    }

    let http: HTTP1Channel
    let limit: ConnectionLimit
    let refusalLinger: TimeAmount
    let refusalMethodWait: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard limit.admit(channel) else {
            return channel.eventLoop.makeCompletedFuture {
                try ConnectionRefusal.install(on: channel, limit: limit.maximum, linger: refusalLinger,
                                          methodWait: refusalMethodWait)
                return Value(channel: channel, served: nil)
            }
        }
        // Still on the channel's event loop, before a byte is read: HTTP/1.0 framing.
        return http.setup(channel: channel, logger: logger).flatMapThrowing { served in
            try HTTP10Framing.install(on: channel)
            return Value(channel: channel, served: served)
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard let served = value.served else { return }
        await http.handle(value: served, logger: logger)
    }
}
