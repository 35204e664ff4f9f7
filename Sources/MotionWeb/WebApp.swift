import MotionAnalysis
import MotionCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The request context: Hummingbird's, plus the client's address (the login rate limit's
/// key) and its connection (closed when a download's client stops reading).
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let client: String
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? "local"
        channel = source.channel
    }
}

/// Everything the routes share: the folder, access control, the live recorder, caches.
final class WebApp: Sendable {
    let configuration: WebConfiguration
    let folder: RecordingFolder
    let access: WebAccess
    let series = SeriesCache()
    /// Summaries given up for lack of memory, and why.
    let summaryRefusals = SummaryRefusals()
    let log: Logger
    let downloads = Atomic<Int>(0)
    /// Connections open at once, and those refused over the limit.
    let connections: ConnectionLimit
    /// Recordings in a ZIP being sent, and in how many (`zips`): not deleted meanwhile (the
    /// ZIP opens each file only when it reaches it, and its Content-Length is already sent);
    /// and recordings a DELETE is removing (`deleting`): left out of a ZIP that starts then.
    /// One lock for both, so a DELETE and a ZIP's hold on a name exclude each other.
    let zipping = Mutex<HeldNames>(HeldNames())
    /// Background summaries of finished recordings (nil when the configuration turns them off).
    let summaries: SummaryWarmer?

    init(configuration: WebConfiguration, log: Logger, verify: @escaping @Sendable (String, String) -> Bool) {
        self.configuration = configuration
        self.log = log
        connections = ConnectionLimit(maximum: configuration.maxConnections, log: log, onEvent: configuration.onConnection)
        folder = RecordingFolder(path: configuration.folder, clock: configuration.clock)
        access = WebAccess(passwordHash: configuration.passwordHash, clock: configuration.clock, verify: verify)
        if configuration.backgroundSummaries {
            let folder = self.folder, live = configuration.live
            let memory = configuration.availableMemory, refusals = summaryRefusals
            summaries = SummaryWarmer(folder: folder, isWriting: { e in
                folder.mayBeWriting(e) || (live.flatMap { try? $0.send("status").status?.currentName } == e.name)
            }, summarise: { r in refusals.summarise(r, paths: r.csvPaths(in: folder.path), available: memory()) != nil },
               onRound: configuration.onSummaryRound)
        } else {
            summaries = nil
        }
    }

    /// The folder's files, newest first; starts background summaries for any recording that needs one.
    func listing() async throws -> [RecordingEntry] {
        let entries = try await blocking { try self.folder.list() }
        if let summaries { summaries.noteListing(try await blocking { try self.folder.recordings() }) }
        return entries
    }

    /// The folder's recordings (rotated parts together), newest first; starts background
    /// summaries for any that need one.
    func recordings() async throws -> [RecordingParts] {
        let recordings = try await blocking { try self.folder.recordings() }
        summaries?.noteListing(recordings)
        return recordings
    }

    func router() -> Router<WebContext> {
        let routes = WebRoutes(Router(context: WebContext.self))
        let methods = RouteMethods()
        routes.add(middleware: AccessMiddleware(app: self, methods: methods))
        addPages(routes)
        addFiles(routes)
        addAPI(routes)
        methods.set(routes.methods())
        return routes.router
    }

    // MARK: Shared helpers

    /// The session of a request (checked by the middleware before any route runs).
    func session(_ request: Request) -> WebAccess.Session? {
        access.session(cookie: request.cookies[WebAccess.cookieName]?.value)
    }

    /// Runs blocking work (file reads, the control socket, bcrypt) on NIO's blocking pool.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// The recorder's status as the control socket reports it; nil without one or when it
    /// does not answer.
    func liveStatus() async -> LiveStatus? {
        guard let live = configuration.live else { return nil }
        return try? await blocking { try live.send("status").status }
    }

    /// The name of the file being written, by the attached recorder.
    func writingName() async -> String? { await liveStatus()?.currentName }

    /// Whether a recording may be being written (by the daemon or another `record`).
    func isBeingWritten(_ e: RecordingEntry, writing: String?) -> Bool {
        e.name == writing || folder.mayBeWriting(e)
    }

    /// `writer` with a stall guard: when the client stops reading for
    /// `stalledClientTimeout`, its connection is closed and the download ends. The body
    /// must call `end()` on the guard however it ends (it frees `slot`).
    func guarding(_ writer: any ResponseBodyWriter, _ context: WebContext, what: String, slot: DownloadSlot?) -> GuardedWriter {
        let log = self.log, hook = configuration.onStalledClient, client = context.client
        let stall = StallGuard(channel: context.channel, timeout: configuration.stalledClientTimeout, slot: slot, onStall: {
            log.warning("closed a download whose client stopped reading", metadata: ["download": "\(what)", "client": "\(client)"])
        }, onStalledEnd: { hook?() })
        return GuardedWriter(inner: writer, stall: stall)
    }

    /// A download slot, released when the response body is done with (or dropped).
    func takeDownloadSlot() -> DownloadSlot? {
        let before = downloads.add(1, ordering: .relaxed).oldValue
        guard before < configuration.maxDownloads else {
            downloads.subtract(1, ordering: .relaxed)
            return nil
        }
        return DownloadSlot(counter: self)
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: jsonHeaders, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The headers of a JSON answer (`json(_:status:)`) but its length.
    static var jsonHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return headers
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // Everything is inline; nothing may be loaded from elsewhere.
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// An error the way the client asked: JSON for the API, a short page otherwise.
    static func failure(_ status: HTTPResponse.Status, _ message: String, api: Bool) -> Response {
        if api { return json(["error": message], status: status) }
        let body = "<h1>\(status.code) \(Text.html(status.reasonPhrase))</h1><p>\(Text.html(message))</p><p><a href=\"/\">Back to the recordings</a></p>"
        return html(Layout.page(title: "\(status.code)", csrf: nil, body: body), status: status)
    }
}

/// One running download; gives its slot back when released or dropped, whichever is first.
final class DownloadSlot: Sendable {
    let counter: WebApp
    private let released = Atomic<Bool>(false)
    init(counter: WebApp) { self.counter = counter }

    func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) { counter.downloads.subtract(1, ordering: .relaxed) }
    }

    deinit { release() }
}

extension RouterMethods where Context == WebContext {
    /// GET `path` and HEAD of the same: the status and headers, no body (RFC 9110 §9.3.2; the
    /// router answered HEAD with 404 where only GET was registered). A streamed body is never
    /// produced: its response is dropped unsent (a download slot or ZIP hold it took is freed).
    func getAndHead(_ path: RouterPath, use handler: @escaping @Sendable (Request, WebContext) async throws -> Response) {
        get(path, use: handler)
        head(path) { request, context in WebApp.headersOnly(try await handler(request, context)) }
    }
}

extension WebApp {
    /// `r` without its body: its status and headers, `Content-Length` only where the GET
    /// sends one. A body whose length is not known before it is sent (the wide CSV, the
    /// events) has none: its HEAD says `Transfer-Encoding: chunked`, as its GET does (an empty
    /// `Response` body claims `Content-Length: 0`, which the HEAD of the wide CSV said).
    static func headersOnly(_ r: Response) -> Response {
        let length = r.headers[.contentLength] ?? r.body.contentLength.map { "\($0)" }
        var head = Response(status: r.status, headers: r.headers, body: .init())
        head.headers[.contentLength] = length
        return head
    }
}

/// The names ZIP downloads hold and the names DELETEs are removing (`WebApp.zipping`).
struct HeldNames: Sendable, Equatable {
    /// Recording name: how many running ZIPs hold it.
    var zips: [String: Int] = [:]
    /// Recording name: how many DELETEs of it are running.
    var deleting: [String: Int] = [:]
}

/// The recordings of one ZIP download, held in `WebApp.zipping` until released or dropped.
///
/// Taken before the ZIP looks its files up, opens or sizes them: a DELETE either came
/// first (the name is left out of `names`, and the ZIP leaves out a file it cannot open)
/// or is refused with 409 while the ZIP holds the name.
final class ZipHold: Sendable {
    let app: WebApp
    /// The names held: those asked for, less those a DELETE was removing at that moment.
    let names: [String]
    private let released = Atomic<Bool>(false)

    init(app: WebApp, names: [String]) {
        // Taken before any stored property is set (the same code inside the initialiser,
        // after `self.app`, crashed Swift 6.3.1's optimiser: "Found ownership error").
        let taken = Self.take(names, app: app)
        self.app = app
        self.names = taken
    }

    /// Holds each of `names` no DELETE is removing; returns those held.
    private static func take(_ names: [String], app: WebApp) -> [String] {
        app.zipping.withLock { held in
            var taken: [String] = []
            for n in names where held.deleting[n] == nil {
                held.zips[n, default: 0] += 1
                taken.append(n)
            }
            return taken
        }
    }

    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        app.zipping.withLock { held in
            for n in names {
                let left = (held.zips[n] ?? 1) - 1
                held.zips[n] = left > 0 ? left : nil
            }
        }
    }

    deinit { release() }
}

/// A DELETE's claim on a recording name in `WebApp.zipping`: none while a ZIP holds the
/// name; while it lasts, a ZIP that starts leaves the recording out.
final class DeleteClaim: Sendable {
    let app: WebApp
    let name: String
    private let released = Atomic<Bool>(false)

    /// Nil when a ZIP holds `name`.
    init?(app: WebApp, name: String) {
        let claimed = app.zipping.withLock { held -> Bool in
            guard held.zips[name] == nil else { return false }
            held.deleting[name, default: 0] += 1
            return true
        }
        guard claimed else { return nil }
        self.app = app
        self.name = name
    }

    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        app.zipping.withLock { held in
            let left = (held.deleting[name] ?? 1) - 1
            held.deleting[name] = left > 0 ? left : nil
        }
    }

    deinit { release() }
}

extension HTTPField.Name {
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
}

/// Login, method, CSRF and host checks in front of every route.
///
/// - Off loopback (a password is set), every route but `/login` needs a live session
///   cookie: pages redirect to the login form, the API answers 401.
/// - A path no route has answers 404; a path whose route does not answer the request's
///   method, 405 with `Allow`; OPTIONS, 204 with `Allow`. No handler runs for these, so
///   they need no CSRF token.
/// - Every request a route answers that may change something (any method but GET and HEAD,
///   except the login form itself) must carry the CSRF token of the session
///   (`X-CSRF-Token` header), else 403.
/// - On loopback the `Host` must be a loopback name or address, so a DNS-rebinding page
///   cannot read our pages (and their token) under its own name.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let app: WebApp
    let methods: RouteMethods

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let api = path.hasPrefix("/api/")
        if app.configuration.listen.isLoopback, let host = request.head.authority, !Self.isLoopbackHost(host) {
            return WebApp.failure(.misdirectedRequest, "this server answers only to localhost / 127.0.0.1 (Host was \(host))", api: api)
        }
        let isLogin = path == "/login"
        let session = app.session(request)
        if session == nil && !isLogin {
            // HEAD as GET (docs/WEB.md: the status and headers the GET would have).
            if api || (request.method != .get && request.method != .head) {
                let r = WebApp.failure(.unauthorized, "log in first", api: true)
                return request.method == .head ? WebApp.headersOnly(r) : r
            }
            var headers = HTTPFields()
            headers[.location] = "/login"
            return Response(status: .seeOther, headers: headers)
        }
        // The route table before the CSRF check: a path no route has (404), a method its route
        // does not answer (405) and OPTIONS (204) reach no handler, so need no token.
        guard let allowed = await methods.allowed(request, context: context) else { return Self.notFound(request, api: api) }
        if request.method == .options || !allowed.contains(request.method) {
            let allow = RouteMethods.allowHeader(allowed)
            if request.method == .options { return Response(status: .noContent, headers: [.allow: allow]) }
            // Not 404: the page is there, the method is not one it answers.
            var r = WebApp.failure(.methodNotAllowed, "\(request.method) \(path) is not answered here: it answers \(allow)", api: api)
            r.headers[.allow] = allow
            return request.method == .head ? WebApp.headersOnly(r) : r
        }
        if request.method != .get && request.method != .head && !isLogin {
            guard let session, let token = request.headers[.csrfToken], WebAccess.tokensMatch(token, session.csrf) else {
                app.log.warning("refused a request without a valid CSRF token", metadata: ["method": "\(request.method)", "path": "\(path)", "client": "\(context.client)"])
                return WebApp.failure(.forbidden, "missing or wrong CSRF token: use the buttons on the logger's own page", api: true)
            }
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return Self.notFound(request, api: api)
        }
    }

    /// No route has the path (the router's bare 404 had no body; errors here say what they are).
    static func notFound(_ request: Request, api: Bool) -> Response {
        let method = request.method == .get || request.method == .head ? "" : "\(request.method) "
        let r = WebApp.failure(.notFound, "no such \(api ? "API route" : "page"): \(method)\(request.uri.path)", api: api)
        return request.method == .head ? WebApp.headersOnly(r) : r
    }

    static func isLoopbackHost(_ authority: String) -> Bool {
        var host = authority
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return ListenAddress.isLoopbackName(host)
    }
}
