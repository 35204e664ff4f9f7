import Foundation
import Glibc
@testable import MotionWeb
import Synchronization
import Testing

/// A client that does not send its request in time loses its connection (slowloris: a
/// head sent one byte at a time held a connection for Hummingbird's 120 s idle timeout, a
/// body sent one byte at a time forever); a long response to a client that sends nothing
/// meanwhile (a download, the events stream) is not cut. The request timeout is made tiny;
/// the tests wait for the server to close, with a deadline far above it, and assert no time.
@Suite struct WebSlowClientTests {
    static let timeout: Duration = .milliseconds(100)
    /// How long a test waits for the server to close a connection before failing.
    static let patience: Duration = .seconds(60)

    @Test func aRequestThatDoesNotArriveInTimeIsClosed() async throws {
        let f = try WebFixture()
        try await f.app(requestTimeout: Self.timeout).test(.live) { client in
            let port = try #require(client.port)
            // A head trickled in, a byte per poll step.
            let head = try RawClient(port: port)
            head.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            #expect(await head.readUntilClosed(trickle: true).closed, "a head trickled in")
            // Nothing at all.
            let silent = try RawClient(port: port)
            #expect(await silent.readUntilClosed().closed, "a silent connection")
            // A whole head announcing a body that then trickles in (the login form, which on
            // loopback redirects without reading it).
            let body = try RawClient(port: port)
            body.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n")
            #expect(await body.readUntilClosed(trickle: true).closed, "a body trickled in")
            // Kept alive after a response, with no next request: closed too.
            let idle = try RawClient(port: port)
            idle.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let after = await idle.readUntilClosed()
            #expect(after.closed && String(decoding: after.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "an idle keep-alive")
        }
    }

    /// A client that has not read the whole response when the deadline closes the idle
    /// connection, and then pipelines a request, still gets the whole response: the server
    /// closed its output and reads and discards the request (a full close made the kernel
    /// answer the request with RST, which threw away the unread end of the response).
    @Test func aRequestPipelinedAfterTheDeadlineDoesNotResetTheConnection() async throws {
        let f = try WebFixture()
        try SlowReader.writeLargeFile(f.folder + "/20260102080000.csv")
        let size = 16 << 20
        let written = Atomic<Bool>(false)
        let (lingering, lingeringC) = AsyncStream.makeStream(of: Void.self)
        try await f.app(requestTimeout: Self.timeout, linger: Self.patience, deadlineEvents: { event in
            if event == .responseWritten { written.store(true, ordering: .releasing) }
            // (A close after responses: what the old code did, so that it fails, not hangs.)
            if event == .lingering || event == .closed(responses: 1) { lingeringC.yield() }
        }).test(.live) { client in
            let c = try RawClient(port: try #require(client.port))
            c.send("GET /recordings/20260102080000.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-\(size - 1)\r\n\r\n")
            // Read until the server has handed the response's last byte to its socket, then
            // stop: the kernel still holds the end of it when the deadline passes.
            let first = await c.read(until: { _ in written.load(ordering: .acquiring) })
            #expect(!first.closed)
            for await _ in lingering { break }
            c.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let got = await c.read(until: { _ in false }, from: first.bytes)
            #expect(got.closed)
            #expect(RawClient.bodyLength(got.bytes) == size, "the download was cut at \(RawClient.bodyLength(got.bytes)) bytes")
        }
    }

    /// The download's client reads nothing for longer than the timeout (a probe connection
    /// opened after its request is closed first), then reads all of it.
    @Test func aDownloadToAClientThatPausesIsNotCut() async throws {
        let f = try WebFixture()
        let size = 16 << 20   // far more than the socket buffers hold: the response is still being written
        let line = Array(repeating: UInt8(ascii: "x"), count: 1023) + [0x0A]   // rows end with LF: all of it is served
        try Data((0..<(size / 1024)).flatMap { _ in line }).write(to: URL(fileURLWithPath: f.folder + "/20260101080000.csv"))
        try await f.app(requestTimeout: Self.timeout).test(.live) { client in
            let port = try #require(client.port)
            let download = try RawClient(port: port)
            download.send("GET /recordings/20260101080000.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var got = await download.read(until: { $0.count > 0 })
            #expect(String(decoding: got.bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            let probe = try RawClient(port: port)
            #expect(await probe.readUntilClosed().closed)
            got = await download.read(until: { RawClient.bodyLength($0) >= size }, from: got.bytes)
            #expect(RawClient.bodyLength(got.bytes) == size, "the download was cut after \(RawClient.bodyLength(got.bytes)) bytes")
        }
    }

    /// The events stream sends nothing for a while and its client sends nothing at all.
    @Test func theEventsStreamIsNotCut() async throws {
        let f = try WebFixture()
        try await f.app(requestTimeout: Self.timeout, events: (2, .seconds(1))).test(.live) { client in
            let port = try #require(client.port)
            let events = try RawClient(port: port)
            events.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var got = await events.read(until: { String(decoding: $0, as: UTF8.self).contains("data: ") })
            let probe = try RawClient(port: port)
            #expect(await probe.readUntilClosed().closed)
            got = await events.read(until: { $0.suffix(5) == Array("0\r\n\r\n".utf8) }, from: got.bytes)
            let text = String(decoding: got.bytes, as: UTF8.self)
            #expect(text.components(separatedBy: "data: ").count - 1 == 2 && text.hasSuffix("0\r\n\r\n"), "\(text)")
        }
    }
}

/// A raw TCP client of the test server (no HTTP client library: it must be able to send
/// half a request and to not read).
/// Its reads block: they run on a thread of their own, not on the cooperative pool the
/// server's handlers need (two cores: two blocked reads starved the server).
final class RawClient: Sendable {
    let sock: Int32

    init(port: Int) throws {
        sock = try SlowReader.connect(port: port)
        // The poll step: a read waits this long for bytes before the loop looks again.
        var step = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &step, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(sock) }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(sock, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `done` holds for all read so far, the server closes the connection, or
    /// `WebSlowClientTests.patience` passes. `trickle`: sends one byte at each poll step
    /// that brought nothing.
    func read(until done: @escaping @Sendable ([UInt8]) -> Bool, from start: [UInt8] = [], trickle: Bool = false) async -> (bytes: [UInt8], closed: Bool) {
        await withCheckedContinuation { c in
            Thread { c.resume(returning: self.blockingRead(until: done, from: start, trickle: trickle)) }.start()
        }
    }

    private func blockingRead(until done: ([UInt8]) -> Bool, from start: [UInt8], trickle: Bool) -> (bytes: [UInt8], closed: Bool) {
        var bytes = start
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = ContinuousClock.now + WebSlowClientTests.patience
        while !done(bytes) && ContinuousClock.now < deadline {
            let n = buffer.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                bytes += buffer.prefix(n)
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return (bytes, true)   // closed (or reset) by the server
            } else if trickle {
                send("x")
            }
        }
        return (bytes, false)
    }

    /// Waits (poll, no read) until the server has shut down its side of the connection,
    /// or `WebSlowClientTests.patience` passes.
    func waitForPeerShutdown() async -> Bool {
        await withCheckedContinuation { c in
            Thread {
                var p = pollfd(fd: self.sock, events: Int16(0x2000), revents: 0)   // POLLRDHUP
                let n = poll(&p, 1, Int32(WebSlowClientTests.patience.components.seconds * 1000))
                c.resume(returning: n == 1 && p.revents & Int16(0x2000) != 0)
            }.start()
        }
    }

    func readUntilClosed(trickle: Bool = false) async -> (bytes: [UInt8], closed: Bool) {
        await read(until: { _ in false }, trickle: trickle)
    }

    /// Bytes after the response head in `bytes`.
    static func bodyLength(_ bytes: [UInt8]) -> Int {
        let separator = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return 0 }
        return bytes.count - end - 4
    }
}
