import MotionCore
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import MotionSystem
import SystemPackage

/// How the web server is set up: the folder it shows, where it listens, the password hash
/// (required off loopback) and, under the daemon, the live recorder.
public struct WebConfiguration: Sendable {
    public var folder: String
    public var listen: ListenAddress
    /// bcrypt hash from `motionlog web-password`; nil: no login (loopback only).
    public var passwordHash: String?
    /// The recorder behind the live card and start/stop/label; nil: files only.
    public var live: (any LiveControl)?
    /// Downloads (files and ZIPs) streaming at once; more get 503.
    public var maxDownloads = 8
    /// The points a GPX or GeoJSON download holds before it reads the recording again
    /// instead (`TrackScan`): 32 768, 1.8 MB, about 9 hours at 1 Hz, so that eight downloads
    /// at once hold 15 MB, not the command line's 120 MB.
    var heldTrackPoints = 1 << 15
    /// Connections open at once (each holds memory; an idle one may live `requestTimeout`);
    /// one more is answered 503 with Retry-After once its method is known, without its request
    /// being read further, and closed (`ConnectionLimit`).
    public var maxConnections = 64
    /// Called when a computed download (timeline, GPX, GeoJSON) starts computing,
    /// with its file name (tests: a HEAD computes none).
    var onExport: (@Sendable (String) -> Void)?
    /// Hears the connection limit's events (tests).
    var onConnection: (@Sendable (ConnectionLimit.Event) -> Void)?
    /// How long a refused connection reads and discards what its client still sends after
    /// the 503 before it is closed fully (a lingering close, as `RequestDeadline`'s).
    var refusalLinger: Duration = .seconds(2)
    /// How long a refused connection is given to send its method (a HEAD's 503 has no body)
    /// before it is answered without one (`ConnectionRefusal`).
    var refusalMethodWait: Duration = .milliseconds(500)
    /// Server-sent events per connection before the server ends it (the browser reconnects).
    public var eventsPerConnection = 600
    /// Time between server-sent events (injected: tests use zero).
    public var eventInterval: Duration = .seconds(1)
    /// A download whose client has not taken a byte for this long is closed (its slot and
    /// file freed); a slow phone on a bad link still takes some bytes each time.
    public var stalledClientTimeout: Duration = .seconds(60)
    /// Called when a stalled download is closed (tests wait on it).
    public var onStalledClient: (@Sendable () -> Void)?
    /// Called by a ZIP download once it holds its recordings' names, before it looks them
    /// up, opens or sizes them (tests run a DELETE there).
    public var onZipHeld: (@Sendable () async -> Void)?
    /// A client must send a whole request (head and body) within this long of the server
    /// starting to wait for one (the connection's start, or the end of the previous
    /// response), or its connection is closed: a client that trickles its headers in
    /// (slowloris) holds a connection this long at most. Not while a response is being
    /// written: downloads and the events stream are not cut by it (`RequestDeadline`).
    public var requestTimeout: Duration = .seconds(30)
    /// When `requestTimeout` passes on a connection idle after a response, its output is
    /// closed and what the client still sends is read and discarded for up to this long
    /// before it is closed fully (a lingering close: a request pipelined behind a response
    /// the client has not read yet got an RST that discarded that response's end).
    public var lingerTimeout: Duration = .seconds(30)
    /// Hears each connection's request deadline events (tests).
    var onRequestDeadline: (@Sendable (RequestDeadline.Event) -> Void)?
    /// Computes the summary of every finished recording without a fresh one, in the
    /// background at the lowest CPU priority, so the list shows distance and activity.
    public var backgroundSummaries = true
    /// Called after each round of background summaries with how many it computed (tests).
    public var onSummaryRound: (@Sendable (Int) -> Void)?
    /// Epoch seconds (injected).
    public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    /// Bytes of memory free now (injected; nil when unknown): the page declines to
    /// summarise or export a recording whose analysis would not fit (`AnalysisMemory`).
    public var availableMemory: @Sendable () -> Int? = { SystemInfo.availableMemoryBytes() }

    public init(folder: String, listen: ListenAddress, passwordHash: String? = nil, live: (any LiveControl)? = nil) {
        self.folder = folder; self.listen = listen; self.passwordHash = passwordHash; self.live = live
    }

    /// Why this configuration must not start, if it must not.
    public var refusal: String? {
        if !listen.isLoopback && passwordHash == nil {
            return "the web page would listen on \(listen), reachable from other machines, without a password: set one with `motionlog web-password` (or listen on 127.0.0.1)"
        }
        return nil
    }
}

/// The web page and JSON API on Hummingbird. Runs on its own NIO event loop thread and
/// NIO's blocking-I/O pool; reads recordings from the folder and the recorder's state only
/// through `LiveControl` (the control socket's protocol), never the sampler's locks.
public final class WebServer: Sendable {
    public let configuration: WebConfiguration
    let app: WebApp
    private let log: Logger
    /// Raised by `RunningWebServer.stop`: the server's complaints about being cancelled
    /// after it are not errors (`QuietWhenStopping`).
    let stopping = StopFlag()

    public init(configuration: WebConfiguration, log: Logger, verify: @escaping @Sendable (String, String) -> Bool = PasswordHash.verify) throws(WebError) {
        if let why = configuration.refusal { throw .refused(why) }
        self.configuration = configuration
        self.log = log
        app = WebApp(configuration: configuration, log: log, verify: verify)
    }

    /// The Hummingbird application (tests drive it with HummingbirdTesting).
    public func application(onRunning: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        let c = configuration, limit = app.connections
        // RequestDeadline instead of Hummingbird's idleTimeout, which restarted at every body
        // part and saw no part of a head that trickles in.
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [RequestDeadline(timeout: c.requestTimeout, linger: c.lingerTimeout, onEvent: c.onRequestDeadline)], idleTimeout: nil)
        return Application(
            router: app.router(),
            server: HTTPServerBuilder { responder in
                LimitedHTTP1Channel(http: HTTP1Channel(responder: responder, configuration: http1), limit: limit,
                                    refusalLinger: TimeAmount(c.refusalLinger), refusalMethodWait: TimeAmount(c.refusalMethodWait))
            },
            configuration: .init(address: .hostname(c.listen.host, port: c.listen.port), serverName: nil),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? c.listen.port) },
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton),
            logger: Logger(label: log.label) { [log, stopping] _ in QuietWhenStopping(inner: log.handler, stopping: stopping) })
    }

    /// Serves until the task is cancelled. `onRunning` gets the bound port.
    public func run(onRunning: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        // The first round of background summaries lists the folder: the cache is warm for the
        // first page view.
        if let summaries = app.summaries { summaries.poke() } else { app.folder.warmUp() }
        try await application(onRunning: onRunning).runService(gracefulShutdownSignals: [])
    }

    /// Starts serving on a thread of its own; returns once the port is bound (or failed).
    public func start() throws(WebError) -> RunningWebServer {
        let bound = WakeBox()
        let task = Task.detached { [self] in
            do { try await self.run { port in bound.set(.success(port)) } } catch {
                bound.set(.failure(error))
            }
            bound.set(.failure(CancellationError()))
        }
        return try started(task, bound.wait())
    }

    /// `start()` for a caller on Swift concurrency's pool: it waits for the port without
    /// holding a thread of the pool, which the server's task needs (on two processors the
    /// pool has two threads, and two callers blocked in the other `start()` leave none).
    public func start() async throws(WebError) -> RunningWebServer {
        let (bound, result) = AsyncStream<Result<Int, any Error>>.makeStream()
        let task = Task.detached { [self] in
            do { try await self.run { port in result.yield(.success(port)) } } catch {
                result.yield(.failure(error))
            }
            result.yield(.failure(CancellationError()))
            result.finish()
        }
        var first = bound.makeAsyncIterator()
        return try started(task, await first.next() ?? .failure(CancellationError()))
    }

    private func started(_ task: Task<Void, Never>, _ bound: Result<Int, any Error>) throws(WebError) -> RunningWebServer {
        switch bound {
        case .success(let port): return RunningWebServer(task: task, port: port, stopping: stopping)
        case .failure(let e):
            task.cancel()
            throw Self.listenFailure(e, address: configuration.listen)
        }
    }

    /// Why binding failed, in words: NIO's text ("bind(descriptor:ptr:bytes:): Address
    /// already in use) (errno: 98)") names its own functions.
    static func listenFailure(_ error: any Error, address: ListenAddress) -> WebError {
        guard let io = error as? IOError else { return .cannotListen(address, reason: "\(error)", portInUse: false) }
        let errno = Errno(rawValue: io.errnoCode)
        if errno == .addressInUse { return .cannotListen(address, reason: "the port is already in use", portInUse: true) }
        return .cannotListen(address, reason: errno.description, portInUse: false)
    }
}

/// A server started with `start()`; `stop()` ends it.
public final class RunningWebServer: Sendable {
    let task: Task<Void, Never>
    public let port: Int
    let stopping: StopFlag
    init(task: Task<Void, Never>, port: Int, stopping: StopFlag) { self.task = task; self.port = port; self.stopping = stopping }
    public func stop() {
        stopping.raise()
        task.cancel()
    }
}

/// The first result, handed from the server task to the thread waiting in `start()`.
final class WakeBox: Sendable {
    private let condition = NSCondition()
    private nonisolated(unsafe) var result: Result<Int, any Error>?

    func set(_ r: Result<Int, any Error>) {
        condition.lock(); defer { condition.unlock() }
        if result == nil { result = r; condition.broadcast() }
    }

    func wait() -> Result<Int, any Error> {
        condition.lock(); defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}
