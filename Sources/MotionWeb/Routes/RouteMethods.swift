import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The router the routes are added to, noting which methods each path answers, so that
/// `AccessMiddleware` can tell a wrong method (405 with `Allow`; it was 404 "no such
/// page" although the page exists) from an unknown path (404). Hummingbird 2's router
/// has no such answer: it looks up the path and the method together.
final class WebRoutes: RouterMethods {
    typealias Context = WebContext
    let router: Router<WebContext>
    /// Each path added, with its methods, in the order they were added.
    private var paths: [(path: RouterPath, methods: [HTTPRequest.Method])] = []

    init(_ router: Router<WebContext>) { self.router = router }

    @discardableResult
    func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Responder) -> Self
    where Responder.Context == WebContext {
        router.on(path, method: method, responder: responder)
        if let i = paths.firstIndex(where: { $0.path.description == path.description }) {
            paths[i].methods.append(method)
        } else {
            paths.append((path, [method]))
        }
        return self
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, WebContext>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// The methods of every path added so far (call it after the last route).
    func methods() -> RouteMethods.Table {
        // The same paths in a router of their own: a path is known exactly when the real
        // router's trie matches it (captures, percent-encoding, empty segments alike).
        let probe = Router(context: WebContext.self)
        for (path, methods) in paths {
            let allow = RouteMethods.allowHeader(methods)
            probe.get(path) { _, _ in Response(status: .ok, headers: [.allow: allow]) }
        }
        return RouteMethods.Table(probe: probe.buildResponder())
    }
}

/// Which methods the route of a request's path answers; filled once the routes are added.
final class RouteMethods: Sendable {
    struct Table: Sendable {
        let probe: RouterResponder<WebContext>
    }

    private let table = Mutex<Table?>(nil)

    func set(_ t: Table) { table.withLock { $0 = t } }

    /// The methods answered at `request`'s path (OPTIONS included: the middleware answers
    /// it), or nil when no route has that path.
    func allowed(_ request: Request, context: WebContext) async -> [HTTPRequest.Method]? {
        guard let probe = table.withLock({ $0?.probe }) else { return nil }
        var head = request.head
        head.method = .get
        let found = try? await probe.respond(to: Request(head: head, body: .init(buffer: ByteBuffer())), context: context)
        guard let found, found.status == .ok, let allow = found.headers[.allow] else { return nil }
        return allow.split(separator: ",").compactMap { HTTPRequest.Method(String($0.trimmingCharacters(in: .whitespaces))) }
    }

    /// `Allow` for a route's methods: each once, in the order added, and OPTIONS.
    static func allowHeader(_ methods: [HTTPRequest.Method]) -> String {
        var seen = Set<String>()
        return (methods + [.options]).map(\.rawValue).filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}
