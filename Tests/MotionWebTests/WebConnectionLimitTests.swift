import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
@testable import MotionWeb
import Synchronization
import Testing

/// Connections open at once are capped (`WebConfiguration.maxConnections`): one over the cap
/// is answered 503 with Retry-After at once, without its request being read, and closed;
/// once a connection closes, a new one is served. Real sockets against the server on
/// 127.0.0.1 port 0 (there was no cap: a LAN client could hold thousands of connections,
/// each up to the 30 s request deadline, on a 512 MB Pi Zero).
@Suite struct WebConnectionLimitTests {
    static let request = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Fills a limit of two connections: the test client's own and one raw client served a
    /// response and kept open (returned: the connection lasts as long as it does).
    static func fillALimitOfTwo(_ client: some TestClientProtocol, port: Int) async throws -> RawClient {
        #expect(try await client.execute(uri: "/api/status", method: .get).status == .ok)
        let held = try RawClient(port: port)
        held.send(request)
        let first = await held.read(until: RawClient.hasWholeResponse)
        #expect(String(decoding: first.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        return held
    }

    @Test func aConnectionOverTheLimitGets503AndIsClosed() async throws {
        let f = try WebFixture()
        let (closed, closedC) = AsyncStream.makeStream(of: Int.self)
        let refused = Atomic<Int>(0)
        let log = LogLines()
        try await f.app(maxConnections: 3, connectionEvents: { event in
            switch event {
            case .closed(let open): closedC.yield(open)
            case .refused(let total): refused.store(total, ordering: .releasing)
            }
        }, log: log.logger).test(.live) { client in
            let port = try #require(client.port)
            // The test client's own connection (kept alive), and two more kept alive after a
            // response each: three open on the server, the limit.
            #expect(try await client.execute(uri: "/api/status", method: .get).status == .ok)
            let a = try RawClient(port: port), b = try RawClient(port: port)
            for c in [a, b] {
                c.send(Self.request)
                let got = await c.read(until: RawClient.hasWholeResponse)
                #expect(String(decoding: got.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            }
            // A third: 503 with Retry-After and a plain-text reason, then the server closes it.
            let c = try RawClient(port: port)
            c.send(Self.request)
            let answer = await c.read(until: RawClient.hasWholeResponse)
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text)")
            #expect(text.lowercased().contains("retry-after: 10\r\n") && text.lowercased().contains("connection: close\r\n"), "\(text)")
            if text.hasPrefix("HTTP/1.1 503") { #expect(await c.readUntilClosed().closed) }
            // Another: refused too; both counted, logged in one line (not a line per connection).
            let e = try RawClient(port: port)
            #expect(String(decoding: await e.readUntilClosed().bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
            #expect(refused.load(ordering: .acquiring) == 2)
            #expect(log.all.filter { $0.hasPrefix("refused connections") }.count == 1, "\(log.all)")
            // One of the two ends: a new connection is served again.
            Glibc.shutdown(a.sock, Int32(SHUT_WR))
            for await open in closed where open < 3 { break }
            let d = try RawClient(port: port)
            d.send(Self.request)
            let served = await d.read(until: RawClient.hasWholeResponse)
            #expect(String(decoding: served.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(refused.load(ordering: .acquiring) == 2)
        }
    }

    /// A client over the limit that sends nothing at all is answered all the same (its
    /// request is never waited for), and one that sends garbage gets the same 503.
    @Test func aRefusalNeedsNoRequest() async throws {
        let f = try WebFixture()
        try await f.app(maxConnections: 2).test(.live) { client in
            let port = try #require(client.port)
            let held = try await Self.fillALimitOfTwo(client, port: port)
            defer { withExtendedLifetime(held) {} }
            let silent = try RawClient(port: port)
            let got = await silent.readUntilClosed()
            #expect(got.closed && String(decoding: got.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
            let garbage = try RawClient(port: port)
            garbage.send("\u{1}\u{2}NOT HTTP\r\n\r\n")
            let answer = await garbage.readUntilClosed()
            #expect(answer.closed && String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
        }
    }

    /// A HEAD over the limit gets the 503's headers, with the length a GET's reason has, and
    /// no body (it got the reason as a body: a response to HEAD has none, RFC 9110 §9.3.2);
    /// a GET still gets the reason. The method wait is long here, so that neither is answered
    /// before its request has arrived, however loaded the machine.
    @Test func aHeadOverTheLimitGetsNoBody() async throws {
        let f = try WebFixture()
        try await f.app(maxConnections: 2, refusalMethodWait: .seconds(600)).test(.live) { client in
            let port = try #require(client.port)
            let held = try await Self.fillALimitOfTwo(client, port: port)
            defer { withExtendedLifetime(held) {} }
            func refused(_ request: String) async throws -> (head: String, body: Int) {
                let c = try RawClient(port: port)
                c.send(request)
                let got = await c.readUntilClosed()
                #expect(got.closed)
                let text = String(decoding: got.bytes, as: UTF8.self)
                return (text.components(separatedBy: "\r\n\r\n").first ?? "", RawClient.bodyLength(got.bytes))
            }
            func contentLength(_ head: String) -> Int? {
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
            }
            let head = try await refused(Self.request.replacingOccurrences(of: "GET ", with: "HEAD "))
            let get = try await refused(Self.request)
            #expect(head.head.hasPrefix("HTTP/1.1 503") && get.head.hasPrefix("HTTP/1.1 503"), "\(head.head)\n\(get.head)")
            #expect(head.body == 0, "HEAD answered with \(head.body) body bytes: \(head.head)")
            #expect(get.body > 0 && contentLength(get.head) == get.body, "\(get.head)")
            #expect(contentLength(head.head) == contentLength(get.head), "HEAD: \(head.head)\nGET: \(get.head)")
            #expect(head.head.lowercased().contains("retry-after: 10") && head.head.lowercased().contains("connection: close"))
        }
    }
}

extension RawClient {
    /// Whether `bytes` hold a whole response head and as many body bytes as its Content-Length.
    @Sendable static func hasWholeResponse(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let length = text[..<end.lowerBound].split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bodyLength(bytes) >= length
    }
}
