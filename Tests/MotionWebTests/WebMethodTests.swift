import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import MotionWeb
import Testing

/// A method a path does not answer gets 405 with `Allow` (it got 404 "no such page", or
/// 403 "missing CSRF token", though the page exists); OPTIONS gets 204 with `Allow`; a
/// path no route has stays 404; logins and CSRF tokens are still asked for.
@Suite struct WebMethodTests {
    static let name = "20260101080000"

    static func token(_ client: some TestClientProtocol, cookie: String? = nil) async throws -> String {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        let page = try await client.execute(uri: "/", method: .get, headers: headers)
        return try #require(csrfToken(in: String(buffer: page.body)))
    }

    @Test func wrongMethodsGet405WithAllow() async throws {
        let f = try WebFixture()
        try f.addRecording(Self.name)
        try await f.app().test(.router) { client in
            let t = try await Self.token(client)
            let cases: [(HTTPRequest.Method, String, allow: String, api: Bool)] = [
                (.post, "/recordings/\(Self.name).csv", "GET, HEAD, OPTIONS", false),
                (.post, "/recordings/nope.csv", "GET, HEAD, OPTIONS", false),   // the route's methods: no name is probed
                (.delete, "/", "GET, HEAD, OPTIONS", false),
                (.put, "/download.zip?all=1", "GET, HEAD, OPTIONS", false),
                (.put, "/login", "GET, HEAD, POST, OPTIONS", false),
                (.put, "/api/recordings", "GET, HEAD, OPTIONS", true),
                (.get, "/api/start", "POST, OPTIONS", true),
                (.get, "/api/recordings/\(Self.name)", "DELETE, OPTIONS", true),
                (.post, "/api/recordings/\(Self.name)/summary", "GET, HEAD, OPTIONS", true),
                (.delete, "/events", "GET, HEAD, OPTIONS", false),
                (try #require(HTTPRequest.Method("PROPFIND")), "/", "GET, HEAD, OPTIONS", false),
            ]
            for (method, uri, allow, api) in cases {
                // With and without the CSRF token: no handler runs, so none is needed.
                for headers: HTTPFields in [[:], [.csrfToken: t]] {
                    let r = try await client.execute(uri: uri, method: method, headers: headers)
                    let body = String(buffer: r.body)
                    #expect(r.status == .methodNotAllowed, "\(method) \(uri) \(headers): \(r.status) \(body)")
                    #expect(r.headers[.allow] == allow, "\(method) \(uri)")
                    let path = String(uri.prefix { $0 != "?" })
                    if api {
                        #expect(r.headers[.contentType]?.hasPrefix("application/json") == true && body.hasPrefix("{\"error\":\""), "\(body)")
                    } else {
                        #expect(r.headers[.contentType]?.hasPrefix("text/html") == true && body.contains("<h1>405 Method Not Allowed</h1>"), "\(body)")
                    }
                    #expect(body.contains("\(method.rawValue) \(path)"), "\(body)")
                }
            }
            let head = try await client.execute(uri: "/api/stop", method: .head)
            #expect(head.status == .methodNotAllowed && head.headers[.allow] == "POST, OPTIONS" && head.body.readableBytes == 0)
            #expect(f.exists(Self.name + ".csv"))
        }
    }

    @Test func optionsSaysWhatAPathAnswers() async throws {
        let f = try WebFixture()
        try f.addRecording(Self.name)
        try await f.app().test(.router) { client in
            for (uri, allow) in [("/", "GET, HEAD, OPTIONS"), ("/recordings/\(Self.name).csv", "GET, HEAD, OPTIONS"),
                                 ("/api/recordings/\(Self.name)", "DELETE, OPTIONS"), ("/api/label", "POST, OPTIONS"),
                                 ("/login", "GET, HEAD, POST, OPTIONS")] {
                let r = try await client.execute(uri: uri, method: .options)
                #expect(r.status == .noContent && r.headers[.allow] == allow && r.body.readableBytes == 0, "\(uri): \(r.status) \(r.headers)")
                // Nothing that would let another site's page call the API.
                #expect(r.headers[.accessControlAllowOrigin] == nil && r.headers[.accessControlAllowMethods] == nil)
            }
            let unknown = try await client.execute(uri: "/nonexistent", method: .options)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func unknownPathsStay404AndTokensAreStillNeeded() async throws {
        let f = try WebFixture()
        try f.addRecording(Self.name)
        let live = FakeLive()
        try await f.app(live: live).test(.router) { client in
            let t = try await Self.token(client)
            let page = try await client.execute(uri: "/nonexistent", method: .delete, headers: [.csrfToken: t])
            #expect(page.status == .notFound && String(buffer: page.body).contains("no such page: DELETE /nonexistent"))
            let api = try await client.execute(uri: "/api/nope", method: .post, headers: [.csrfToken: t])
            #expect(api.status == .notFound && String(buffer: api.body) == "{\"error\":\"no such API route: POST /api/nope\"}")
            let deep = try await client.execute(uri: "/recordings/\(Self.name).csv/more", method: .post, headers: [.csrfToken: t])
            #expect(deep.status == .notFound)
            // Without the token too: no handler runs (it was 403 "missing CSRF token").
            let bare = try await client.execute(uri: "/api/nope", method: .delete)
            #expect(bare.status == .notFound && String(buffer: bare.body) == "{\"error\":\"no such API route: DELETE /api/nope\"}")
            // The methods a route answers still need the token.
            let noToken = try await client.execute(uri: "/api/recordings/\(Self.name)", method: .delete)
            #expect(noToken.status == .forbidden && f.exists(Self.name + ".csv"))
            let start = try await client.execute(uri: "/api/start", method: .post)
            #expect(start.status == .forbidden && live.state.withLock { $0.commands }.isEmpty)
        }
    }

    @Test func withAPasswordTheLoginComesFirst() async throws {
        let f = try WebFixture()
        try f.addRecording(Self.name)
        try await f.app(password: "pw").test(.router) { client in
            for method in [HTTPRequest.Method.post, .options] {
                let r = try await client.execute(uri: "/recordings/\(Self.name).csv", method: method)
                #expect(r.status == .unauthorized && r.headers[.allow] == nil, "\(method): \(r.status)")
            }
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let login = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=pw"))
            let cookie = String(try #require(login.headers[.setCookie]).prefix { $0 != ";" })
            let r = try await client.execute(uri: "/recordings/\(Self.name).csv", method: .post, headers: [.cookie: cookie])
            #expect(r.status == .methodNotAllowed && r.headers[.allow] == "GET, HEAD, OPTIONS")
            let t = try await Self.token(client, cookie: cookie)
            let noToken = try await client.execute(uri: "/api/recordings/\(Self.name)", method: .delete, headers: [.cookie: cookie])
            #expect(noToken.status == .forbidden)
            let ok = try await client.execute(uri: "/api/recordings/\(Self.name)", method: .delete, headers: [.cookie: cookie, .csrfToken: t])
            #expect(ok.status == .ok)
        }
    }
}
