import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import MotionWeb
import Synchronization
import Testing

/// An HTTP/1.0 client gets a response HTTP/1.0 can read: no chunked framing (1.0 has none,
/// RFC 9112 §7), the body whole — delimited by the server closing the connection where its
/// length is not known ahead, with `Content-Length` where it is — and the connection closed
/// after it by the server. The wide CSV came as `transfer-encoding: chunked`
/// (`41bc\r\n…0\r\n\r\n`), and every 1.0 connection was kept open after its response.
@Suite struct WebHTTP10Tests {
    /// The head (lower-cased header lines after the status line) and body of a raw response.
    static func split(_ response: String) -> (status: String, headers: [String], body: String) {
        guard let end = response.range(of: "\r\n\r\n") else { return (response, [], "") }
        let lines = response[..<end.lowerBound].split(separator: "\r\n").map(String.init)
        return (lines.first ?? "", lines.dropFirst().map { $0.lowercased() }, String(response[end.upperBound...]))
    }

    @Test func aStreamedDownloadIsDelimitedByClosingTheConnection() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name)
        let deadline = Mutex<[RequestDeadline.Event]>([])
        try await f.app(deadlineEvents: { e in deadline.withLock { $0.append(e) } }).test(.live) { client in
            let port = try #require(client.port)
            for uri in ["/recordings/\(name).wide.csv", "/recordings/\(name).gpx", "/recordings/\(name).csv"] {
                // What HTTP/1.1 gets, the body decoded by the test client.
                let expected = try await client.execute(uri: uri, method: .get)
                #expect(expected.status == .ok)
                let raw = await RawHTTP.onThread { (try? RawHTTP.exchange(port: port, "GET \(uri) HTTP/1.0\r\n\r\n")) ?? "" }
                let (status, headers, body) = Self.split(raw)
                #expect(status.hasPrefix("HTTP/1.") && status.contains(" 200 "), "\(uri): \(status)")
                #expect(!headers.contains { $0.hasPrefix("transfer-encoding:") }, "\(uri): \(headers)")
                #expect(headers.contains("connection: close"), "\(uri): \(headers)")
                #expect(body == String(buffer: expected.body), "\(uri): \(body.utf8.count) bytes, expected \(expected.body.readableBytes)")
                if let length = headers.first(where: { $0.hasPrefix("content-length:") }) {
                    #expect(length == "content-length: \(body.utf8.count)", "\(uri)")
                }
            }
            // The wide CSV's length is not known ahead: the close delimits it.
            let head = Self.split(await RawHTTP.onThread {
                (try? RawHTTP.exchange(port: port, "HEAD /recordings/\(name).wide.csv HTTP/1.0\r\n\r\n")) ?? ""
            })
            #expect(head.status.contains(" 200 ") && head.body.isEmpty, "\(head)")
            #expect(!head.headers.contains { $0.hasPrefix("transfer-encoding:") || $0.hasPrefix("content-length:") }, "\(head)")
        }
        // Each connection was closed by the server after its response, not by the request
        // deadline, 30 s later (lingering) as a connection kept open would have been.
        #expect(!deadline.withLock { $0 }.contains(.lingering), "\(deadline.withLock { $0 })")
    }

    /// HTTP/1.1 is unchanged: a streamed body is still chunked, the connection not closed.
    @Test func http11StillGetsChunked() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name)
        try await f.app().test(.live) { client in
            let wide = try await client.execute(uri: "/recordings/\(name).wide.csv", method: .get)
            #expect(wide.headers[.transferEncoding] == "chunked")
            #expect(wide.headers[.connection] == nil)
        }
    }
}
