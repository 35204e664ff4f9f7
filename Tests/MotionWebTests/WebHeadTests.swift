import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MotionCore
@testable import MotionWeb
import Synchronization
import Testing

/// HEAD says on the wire what GET would: the same status and headers, and a
/// `Content-Length` only where GET sends one. The wide CSV's HEAD said `Content-Length: 0`
/// above a chunked GET of a megabyte, and `/events` had no HEAD (404).
@Suite struct WebHeadTests {
    /// The headers that must agree (`Date` may tick between the two requests).
    static func comparable(_ fields: HTTPFields) -> HTTPFields {
        var f = fields
        f[.date] = nil
        return f
    }

    @Test func headCarriesTheHeadersOfEveryDownloadKind() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name, seconds: 120)
        try await f.app().test(.live) { client in
            let etag = try #require(try await client.execute(uri: "/recordings/\(name).csv", method: .head).headers[.eTag])
            let cases: [(uri: String, headers: HTTPFields)] = [
                ("/recordings/\(name).csv", [:]),                            // Content-Length, validators
                ("/recordings/\(name).csv", [.range: "bytes=100-199"]),      // 206, Content-Range
                ("/recordings/\(name).csv", [.range: "bytes=99999999-"]),    // 416
                ("/recordings/\(name).csv", [.ifNoneMatch: etag]),           // 304
                ("/recordings/\(name).json", [:]),
                ("/recordings/\(name).gpx", [:]),                            // computed: length known to GET only
                ("/recordings/\(name).geojson", [:]),
                ("/recordings/\(name).timeline.json", [:]),
                ("/recordings/\(name).wide.csv", [:]),                       // streamed: chunked, no length
                ("/download.zip?name=\(name)", [:]),                         // exact length computed ahead
                ("/download.zip?all=1", [:]),
                ("/events", [:]),                                            // streamed
                ("/", [:]), ("/api/recordings", [:]),
            ]
            // Computed as a whole before it is sent: its length is known only once computed,
            // which a HEAD does not do; it says none (framed as chunked).
            let computed = ["gpx", "geojson", "timeline.json"].map { "/recordings/\(name).\($0)" }
            for c in cases {
                let get = try await client.execute(uri: c.uri, method: .get, headers: c.headers)
                let head = try await client.execute(uri: c.uri, method: .head, headers: c.headers)
                let what = "\(c.uri) \(c.headers)"
                #expect(head.status == get.status, "\(what): HEAD \(head.status), GET \(get.status)")
                #expect(head.body.readableBytes == 0, "\(what)")
                var expected = Self.comparable(get.headers)
                if computed.contains(c.uri) {
                    expected[.contentLength] = nil
                    expected[.transferEncoding] = "chunked"
                }
                #expect(Self.comparable(head.headers) == expected, "\(what):\nHEAD \(head.headers)\nGET  \(get.headers)")
                if let length = get.headers[.contentLength] {
                    #expect(Int(length) == get.body.readableBytes, "\(what): GET says \(length), sent \(get.body.readableBytes)")
                }
            }
            let wide = try await client.execute(uri: "/recordings/\(name).wide.csv", method: .head)
            #expect(wide.status == .ok && wide.headers[.contentLength] == nil, "\(wide.headers)")
            #expect(wide.headers[.transferEncoding] == "chunked", "\(wide.headers)")
        }
    }

    /// A HEAD does not produce what it describes: the timeline, GPX and GeoJSON are not
    /// computed (a HEAD ran the whole-recording analysis and said its length), and the HEAD
    /// of a ZIP is not logged as a download (it logged "ZIP download").
    @Test func headComputesNoExportAndLogsNoDownload() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name, seconds: 120)
        let exports = Mutex<[String]>([])
        let log = LogLines()
        let computed = ["gpx", "geojson", "timeline.json"]
        try await f.app(log: log.logger, exports: { file in exports.withLock { $0.append(file) } }).test(.router) { client in
            for kind in computed {
                let head = try await client.execute(uri: "/recordings/\(name).\(kind)", method: .head)
                #expect(head.status == .ok && head.headers[.contentLength] == nil, "\(kind): \(head.status) \(head.headers)")
            }
            let zip = try await client.execute(uri: "/download.zip?name=\(name)", method: .head)
            #expect(zip.status == .ok && zip.headers[.contentLength] != nil)
            #expect(exports.withLock { $0 }.isEmpty)
            #expect(log.count("ZIP download") == 0)
            // Their GETs compute and log.
            for kind in computed {
                #expect(try await client.execute(uri: "/recordings/\(name).\(kind)", method: .get).status == .ok)
            }
            #expect(try await client.execute(uri: "/download.zip?name=\(name)", method: .get).status == .ok)
            #expect(exports.withLock { $0 } == computed.map { "\(name).\($0)" })
            #expect(log.count("ZIP download") == 1)
        }
    }

    /// A HEAD of a download answers 503 where its GET would (the CSV's said 200), and the
    /// slot it took is free again at once (a streamed body's HEAD drops it unsent).
    @Test func headIsBusyWhereGetIsAndFreesItsSlot() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 120)
        let uris = ["/recordings/20260101080000.csv", "/recordings/20260101080000.wide.csv",
                    "/recordings/20260101080000.timeline.json", "/recordings/20260101080000.gpx",
                    "/recordings/20260101080000.geojson", "/download.zip?name=20260101080000"]
        try await f.app(maxDownloads: 1).test(.router) { client in
            for uri in uris {
                for _ in 0..<3 {
                    let head = try await client.execute(uri: uri, method: .head)
                    #expect(head.status == .ok, "\(uri)")
                }
                let get = try await client.execute(uri: uri, method: .get)
                #expect(get.status == .ok && get.body.readableBytes > 0, "\(uri)")
            }
        }
        try await f.app(maxDownloads: 0).test(.router) { client in
            for uri in uris {
                let head = try await client.execute(uri: uri, method: .head)
                let get = try await client.execute(uri: uri, method: .get)
                #expect(head.status == .serviceUnavailable && get.status == .serviceUnavailable, "\(uri): HEAD \(head.status), GET \(get.status)")
            }
        }
    }

    /// A HEAD of a computed export says 404 where its GET does, still computing nothing: an
    /// unknown recording, and a file without metadata whose cached summary counts no GPS
    /// rows (no GPX or GeoJSON) or has an empty timeline — those HEADs said 200 while the
    /// GETs said 404. The GETs answer these from the cached summary too, reading no row.
    @Test func headOfAnExportIsNotFoundWhereGetIs() async throws {
        let f = try WebFixture()
        // Copied in without metadata: accelerometer rows only (no track), and a header only
        // (no timeline either).
        let imu = "20260101090000", empty = "20260101100000"
        var csv = CSVFormat.headerLine + "\n"
        for i in 0..<600 { csv += "A,W,\(1_790_000_000 + Double(i) / 10),0.01,-0.02,1.0\n" }
        try csv.write(toFile: f.folder + "/" + imu + ".csv", atomically: false, encoding: .utf8)
        try (CSVFormat.headerLine + "\n").write(toFile: f.folder + "/" + empty + ".csv", atomically: false, encoding: .utf8)
        let exports = Mutex<[String]>([])
        try await f.app(exports: { file in exports.withLock { $0.append(file) } }).test(.router) { client in
            // Their summaries, cached as the page (or the background summaries) cache them.
            for name in [imu, empty] {
                #expect(try await client.execute(uri: "/api/recordings/\(name)/summary", method: .get).status == .ok)
                #expect(f.exists(name + ".summary.json"), "\(name)")
            }
            let uris = ["/recordings/\(imu).gpx", "/recordings/\(imu).geojson", "/recordings/\(empty).gpx",
                        "/recordings/\(empty).geojson", "/recordings/\(empty).timeline.json"]
                + ["gpx", "geojson", "timeline.json", "wide.csv"].map { "/recordings/nope.\($0)" }
            for uri in uris {
                let head = try await client.execute(uri: uri, method: .head)
                let get = try await client.execute(uri: uri, method: .get)
                #expect(get.status == .notFound && head.status == .notFound, "\(uri): HEAD \(head.status), GET \(get.status)")
                #expect(head.body.readableBytes == 0, "\(uri)")
            }
            #expect(exports.withLock { $0 }.isEmpty, "\(exports.withLock { $0 })")
        }
    }

    /// A HEAD of a recording's summary computes nothing: without a cached summary it reads no
    /// CSV and says no length (it computed the summary, cached it and said its length); once
    /// the GET has read the series and cached the summary, it says what the GET says, length
    /// included.
    @Test func headOfASummaryComputesNothing() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name, seconds: 120)
        let uri = "/api/recordings/\(name)/summary"
        try await f.app().test(.router) { client in
            let cold = try await client.execute(uri: uri, method: .head)
            #expect(cold.status == .ok && cold.body.readableBytes == 0)
            #expect(cold.headers[.contentLength] == nil, "\(cold.headers)")
            #expect(cold.headers[.contentType] == "application/json; charset=utf-8" && cold.headers[.cacheControl] == "no-store")
            #expect(!f.exists(name + ".summary.json"), "a HEAD computed the summary")
            #expect(try await client.execute(uri: uri, method: .get).status == .ok)
            #expect(f.exists(name + ".summary.json"))
            let head = try await client.execute(uri: uri, method: .head)
            let get = try await client.execute(uri: uri, method: .get)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(Self.comparable(head.headers) == Self.comparable(get.headers), "HEAD \(head.headers)\nGET  \(get.headers)")
            #expect(head.headers[.contentLength] == "\(get.body.readableBytes)")
            let unknown = try await client.execute(uri: "/api/recordings/nope/summary", method: .head)
            #expect(unknown.status == .notFound && unknown.body.readableBytes == 0)
        }
    }
}
