import MotionAnalysis
import MotionCore
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import MotionWeb
import MotionSystem
import NIOCore
import SystemPackage
import Testing
import ZIPFoundation

@Suite struct WebListAndDownloadTests {
    @Test func listShowsRecordingsNewestFirstFromMetadata() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_767_254_400)
        try f.addRecording("20260102080000", start: 1_767_340_800, droppedRows: 3)
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/api/recordings", method: .get)
            #expect(r.status == .ok)
            let list = try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [[String: Any]]
            #expect(list?.map { $0["name"] as? String } == ["20260102080000", "20260101080000"])
            #expect(list?.first?["health"] as? [String] == ["rows dropped"])
            #expect(list?.last?["health"] as? [String] == ["clean"])
            #expect((list?.last?["duration_s"] as? Double).map { abs($0 - 19.9) < 1e-6 } == true)
            #expect(String(buffer: r.body).contains("\"duration_s\":19.9,"), "to the millisecond, not the difference of two epoch Doubles")
            #expect(list?.last?["size_bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: f.folder + "/20260101080000.csv")[.size] as? Int))
            let page = try await client.execute(uri: "/", method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains("20260102080000") && html.contains("20260101080000"))
            #expect(html.range(of: "20260102080000")!.lowerBound < html.range(of: "20260101080000")!.lowerBound)
        }
    }

    @Test func csvDownloadHasValidatorsAndRanges() async throws {
        let f = try WebFixture()
        let csv = Array(try f.addRecording("20260101080000").utf8)
        try await f.app().test(.router) { client in
            let whole = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get)
            #expect(whole.status == .ok)
            #expect(Array(buffer: whole.body) == csv)
            #expect(whole.headers[.contentLength] == "\(csv.count)")
            #expect(whole.headers[.contentDisposition]?.contains("filename=\"20260101080000.csv\"") == true)
            #expect(whole.headers[.lastModified]?.hasSuffix("GMT") == true)
            let etag = try #require(whole.headers[.eTag])

            let part = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(Array(buffer: part.body) == Array(csv[100...199]))
            #expect(part.headers[.contentRange] == "bytes 100-199/\(csv.count)")

            let tail = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=-10"])
            #expect(Array(buffer: tail.body) == Array(csv.suffix(10)))

            let resumed = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=500-", .ifRange: etag])
            #expect(resumed.status == .partialContent)
            #expect(Array(buffer: resumed.body) == Array(csv[500...]))

            let stale = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=500-", .ifRange: "\"old\""])
            #expect(stale.status == .ok)
            #expect(Array(buffer: stale.body) == csv)

            let unchanged = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            // RFC 9110: If-None-Match compares weakly (W/"x" matches "x"); If-Range may name
            // the Last-Modified date of a file that is no longer changing (both answered 200).
            let weak = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.ifNoneMatch: "\"x\", W/" + etag])
            #expect(weak.status == .notModified)
            let modified = try #require(whole.headers[.lastModified])
            let byDate = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=500-", .ifRange: modified])
            #expect(byDate.status == .partialContent && Array(buffer: byDate.body) == Array(csv[500...]))
            let otherDate = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=500-", .ifRange: "Thu, 01 Jan 2026 00:00:00 GMT"])
            #expect(otherDate.status == .ok)

            let past = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=\(csv.count)-"])
            #expect(past.status == .rangeNotSatisfiable)
            #expect(past.headers[.contentRange] == "bytes */\(csv.count)")
            // Its body says why, as plain text (it was labelled text/csv, a download of the file).
            #expect(past.headers[.contentType] == "text/plain; charset=utf-8" && past.headers[.contentDisposition] == nil, "\(past.headers)")
            #expect(String(buffer: past.body).contains("past the end"), "\(String(buffer: past.body))")
        }
    }

    @Test func hugeAndMalformedRangesDoNotCrash() async throws {
        let f = try WebFixture()
        let csv = Array(try f.addRecording("20260101080000").utf8)
        try await f.app().test(.router) { client in
            for header in ["bytes=99999999999999999999999999-", "bytes=0-99999999999999999999999999", "bytes=-99999999999999999999",
                           "bytes=" + String(repeating: "1", count: 5000) + "-", "bytes=5-1", "bytes=a-b", "bytes=0-1,5-9", "lines=0-1",
                           "bytes=" + Array(repeating: "0-1", count: 2000).joined(separator: ",")] {
                let r = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: header])
                #expect([.ok, .partialContent, .rangeNotSatisfiable].contains(r.status), "\(header.prefix(40))")
                if r.status == .ok { #expect(Array(buffer: r.body) == csv) }
            }
            let big = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get, headers: [.range: "bytes=0-99999999999999999999999999"])
            #expect(Array(buffer: big.body) == csv)
        }
    }

    @Test func aRecordingBeingWrittenDownloadsUpToItsLastCompleteRow() async throws {
        let f = try WebFixture()
        let csv = try f.addRecording("20260101080000", endedCleanly: false, endReason: "recording", tornTail: true)
        let live = FakeLive()
        live.state.withLock { $0 = ("recording", f.folder + "/20260101080000.csv", []) }
        try await f.app(live: live).test(.router) { client in
            let r = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get)
            let body = String(buffer: r.body)
            #expect(body.hasSuffix("\n"))
            #expect(csv.hasPrefix(body) && body.count < csv.count)
            #expect(!body.contains("999"))
            #expect(r.headers[.eTag] == nil)
        }
    }

    @Test func unknownNamesAndPathTricksAre404() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try "secret".write(toFile: f.folder + "/../motionlog-web-secret.txt", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: f.folder + "/../motionlog-web-secret.txt") }
        symlink("/etc/passwd", f.folder + "/link.csv")
        symlink(f.folder + "/20260101080000.json", f.folder + "/alias.json")
        try await f.app().test(.router) { client in
            for uri in ["/recordings/nope.csv", "/recordings/..%2Fmotionlog-web-secret.txt", "/recordings/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
                        "/recordings/..%2F..%2F..%2Fetc%2Fpasswd.csv", "/recordings/link.csv", "/recordings/link", "/recordings/alias.json",
                        "/recordings/%00.csv", "/recordings/20260101080000.csv%00", "/api/recordings/..%2F20260101080000/summary"] {
                let r = try await client.execute(uri: uri, method: .get)
                #expect(r.status == .notFound, "\(uri) gave \(r.status)")
                #expect(!String(buffer: r.body).contains("root:"))
            }
            let list = try await client.execute(uri: "/api/recordings", method: .get)
            #expect(!String(buffer: list.body).contains("link"))
        }
    }

    @Test func zipHoldsTheChosenRecordingsByteForByte() async throws {
        let f = try WebFixture()
        let a = try f.addRecording("20260101080000")
        let b = try f.addRecording("20260102080000", gps: false)
        try f.addRecording("20260103080000")
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/download.zip?name=20260101080000&name=20260102080000", method: .get)
            #expect(r.status == .ok)
            #expect(r.headers[.contentLength] == "\(r.body.readableBytes)")
            let archive = try Archive(data: Data(buffer: r.body), accessMode: .read)
            let names = Set(archive.map(\.path))
            #expect(names == ["20260101080000.csv", "20260101080000.json", "20260102080000.csv", "20260102080000.json"])
            for (name, text) in [("20260101080000.csv", a), ("20260102080000.csv", b)] {
                var out = Data()
                _ = try archive.extract(try #require(archive[name]), skipCRC32: false) { out.append($0) }
                #expect(out == Data(text.utf8))
            }
            let all = try await client.execute(uri: "/download.zip?all=1", method: .get)
            let allArchive = try Archive(data: Data(buffer: all.body), accessMode: .read)
            #expect(allArchive.map(\.path).count == 6)
            let unknown = try await client.execute(uri: "/download.zip?name=20260101080000&name=../../etc/passwd", method: .get)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func gpxAndGeoJSONComeFromTheLocationRows() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try f.addRecording("20260102080000", gps: false)
        try await f.app().test(.router) { client in
            let gpx = try await client.execute(uri: "/recordings/20260101080000.gpx", method: .get)
            #expect(gpx.status == .ok)
            #expect(String(buffer: gpx.body).components(separatedBy: "<trkpt").count - 1 == 20)
            let geo = try await client.execute(uri: "/recordings/20260101080000.geojson", method: .get)
            #expect(String(buffer: geo.body).contains("LineString"))
            let none = try await client.execute(uri: "/recordings/20260102080000.gpx", method: .get)
            #expect(none.status == .notFound)
        }
    }

    @Test func recordingPageHasTrackAndCharts() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/recordings/20260101080000", method: .get)
            #expect(r.status == .ok)
            let html = String(buffer: r.body)
            #expect(html.contains("<svg class=\"track\""))
            #expect(html.contains("class=\"move\"") && html.contains(" d=\"M"))
            #expect(html.contains("chart speed") && html.contains("chart elevation") && html.contains("chart accel"))
            #expect(html.contains("<figcaption>Speed</figcaption>"))   // gpsd's speed
            #expect(html.contains("/recordings/20260101080000.gpx"))
            let summary = try await client.execute(uri: "/api/recordings/20260101080000/summary", method: .get)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: summary.body)) as? [String: Any]
            #expect((json?["track"] as? [[[Double]]])?.first?.count == 20)
        }
    }

    /// A CSV without metadata (a converted GPX, a file copied in) has its positions counted
    /// by the summary: the page offers GPX and GeoJSON, which the route serves.
    @Test func aRecordingWithoutMetadataOffersItsTrack() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try FileManager.default.removeItem(atPath: f.folder + "/20260101080000.json")
        try f.age("20260101080000.csv")
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(html.contains("no metadata") && html.contains("<svg class=\"track\""), "\(html)")
            #expect(html.contains("/recordings/20260101080000.gpx") && html.contains("/recordings/20260101080000.geojson"))
            let gpx = try await client.execute(uri: "/recordings/20260101080000.gpx", method: .get)
            #expect(gpx.status == .ok && String(buffer: gpx.body).components(separatedBy: "<trkpt").count - 1 == 20)
        }
    }

    /// A converted GPX has no gpsd speed: its speed chart is the speed from positions, and
    /// says so (it said "no GPS speed").
    @Test func aTrackWithoutGPSSpeedChartsItFromPositions() async throws {
        let f = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        for k in 0..<120 { csv += "L,W,\(1_790_000_000 + Double(k)),\(48.1 + Double(k) * 4.5e-5),11.5,500.0,nan,nan,nan,5.0,nan,3\n" }
        try f.addCopiedCSV("20260101080000", csv)
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(html.contains("<figcaption>Speed (from positions)</figcaption>") && !html.contains("no GPS speed"), "\(html)")
        }
    }

    /// A sparse track without gpsd's speed (a fix every 2–5 min) has too few speeds from
    /// positions to draw; the chart says why (it said "no GPS speed" under "from positions").
    @Test func aSparseTrackWithoutGPSSpeedSaysWhyItHasNoSpeedChart() async throws {
        let f = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        var t = 1_790_000_000.0
        for k in 0..<12 {
            csv += "L,W,\(t),\(48.1 + Double(k) * 4.5e-3),11.5,500.0,nan,nan,nan,nan,nan,3\n"
            t += k % 2 == 0 ? 130 : 250
        }
        try f.addCopiedCSV("20260101080000", csv)
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(html.contains("too few fixes lie within a minute of each other") && !html.contains("no GPS speed"), "\(html)")
        }
    }

    /// Without metadata nothing says whether GPS was recorded: a CSV of A rows copied in
    /// was "No GPS positions in this file (GPS was not recorded)".
    @Test func aFileWithoutMetadataClaimsNothingAboutGPS() async throws {
        let f = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        for k in 0..<100 { csv += "A,W,\(1_790_000_000 + Double(k) / 10),0.0,0.0,1.0\n" }
        try f.addCopiedCSV("copied", csv)
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/copied", method: .get).body)
            #expect(html.contains("No GPS positions in this file.") && !html.contains("GPS was not recorded"), "\(html)")
        }
    }

    /// Every download takes a slot: the files, the ZIP, and what is computed from a whole
    /// recording (the GPX and GeoJSON took none, so any number ran at once on the Pi).
    @Test func tooManyDownloadsAtOnceGet503() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        let kinds = ["csv", "json", "gpx", "geojson", "timeline.json", "wide.csv"]
        try await f.app(maxDownloads: 0).test(.router) { client in
            for uri in kinds.map({ "/recordings/20260101080000.\($0)" }) + ["/download.zip?name=20260101080000"] {
                let r = try await client.execute(uri: uri, method: .get)
                #expect(r.status == .serviceUnavailable, "\(uri): \(r.status)")
                #expect(r.headers[.retryAfter] == "10", "\(uri)")
            }
        }
    }
}

@Suite struct WebDeleteAndAccessTests {
    func token(_ client: some TestClientProtocol, cookie: String? = nil) async throws -> String {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        let page = try await client.execute(uri: "/", method: .get, headers: headers)
        return try #require(csrfToken(in: String(buffer: page.body)))
    }

    /// HEAD answers where GET does, with GET's status and length and no body (it was 404
    /// on every route but the files').
    @Test func headAnswersWhereGetDoes() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try await f.app().test(.router) { client in
            for uri in ["/", "/api/status", "/api/recordings", "/api/recordings/20260101080000/summary",
                        "/download.zip?name=20260101080000", "/recordings/20260101080000", "/recordings/20260101080000.csv"] {
                _ = try await client.execute(uri: uri, method: .get)   // a summary is cached on first view
                let head = try await client.execute(uri: uri, method: .head)
                let get = try await client.execute(uri: uri, method: .get)
                #expect(get.status == .ok && head.status == .ok, "\(uri): GET \(get.status), HEAD \(head.status)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                if let length = head.headers[.contentLength] {
                    #expect(Int(length) == get.body.readableBytes, "\(uri): HEAD says \(length), GET sent \(get.body.readableBytes)")
                }
            }
            let missing = try await client.execute(uri: "/api/recordings/nope/summary", method: .head)
            #expect(missing.status == .notFound)
            // No route at all: a JSON error for the API, a page otherwise (both were empty).
            let api = try await client.execute(uri: "/api/foo", method: .get)
            #expect(api.status == .notFound && String(buffer: api.body) == "{\"error\":\"no such API route: /api/foo\"}")
            let page = try await client.execute(uri: "/nonexistent", method: .get)
            #expect(page.status == .notFound && String(buffer: page.body).contains("no such page: /nonexistent"))
        }
    }

    /// Without its metadata a recording's GPS rows are not counted: the GPX and GeoJSON
    /// downloads read them anyway, as `motionlog export` does (they were 404 "no GPS
    /// positions"); a file without any is still 404, not an empty track.
    @Test func tracksExportWithoutMetadata() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try f.addRecording("20260102080000", gps: false)
        try FileManager.default.removeItem(atPath: f.folder + "/20260101080000.json")
        try FileManager.default.removeItem(atPath: f.folder + "/20260102080000.json")
        try await f.app().test(.router) { client in
            for kind in ["gpx", "geojson"] {
                let r = try await client.execute(uri: "/recordings/20260101080000." + kind, method: .get)
                #expect(r.status == .ok && String(buffer: r.body).contains("48.1"), "\(kind): \(r.status)")
                let none = try await client.execute(uri: "/recordings/20260102080000." + kind, method: .get)
                #expect(none.status == .notFound, "\(kind): \(none.status)")
            }
        }
    }

    /// Without metadata the list takes the start and length from the cached summary (the
    /// card said "unknown time" and "–" though the summary had both).
    @Test func aRecordingWithoutMetadataListsItsTimesFromTheSummary() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_790_000_000, seconds: 30)
        try FileManager.default.removeItem(atPath: f.folder + "/20260101080000.json")
        _ = try SummaryCache.summary(for: [f.folder + "/20260101080000.csv"])
        let entry = try #require(RecordingFolder(path: f.folder).list().first)
        #expect(entry.startEpoch == 1_790_000_000 && entry.start != nil)
        #expect(abs((entry.durationSeconds ?? 0) - 29.9) < 0.001, "\(entry.durationSeconds ?? -1)")
    }

    /// Where no summary is cached (a server that may not write the folder never caches one),
    /// the list reads the times of the file's first and last rows: the card said "unknown
    /// time" and "–" for good.
    @Test func aRecordingWithoutMetadataOrSummaryListsItsRowsTimes() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_790_000_000, seconds: 30, tornTail: true)
        try FileManager.default.removeItem(atPath: f.folder + "/20260101080000.json")
        let entry = try #require(RecordingFolder(path: f.folder).list().first)
        #expect(!FileManager.default.fileExists(atPath: f.folder + "/20260101080000.summary.json"))
        #expect(entry.startEpoch == 1_790_000_000 && entry.start != nil)
        #expect(abs((entry.durationSeconds ?? 0) - 29.9) < 0.001, "\(entry.durationSeconds ?? -1)")
    }

    /// The page of such a recording takes its time and length from the summary it computes,
    /// before any is cached (a server that may not write the folder never caches one): its
    /// heading said "unknown time" and "–".
    @Test func aRecordingWithoutMetadataHeadsItsPageWithItsTimes() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_790_000_000, seconds: 30)
        try FileManager.default.removeItem(atPath: f.folder + "/20260101080000.json")
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            let heading = try #require(page.range(of: "<h1>").map { String(page[$0.upperBound...].prefix(200)) })
            #expect(!heading.hasPrefix("unknown time") && heading.contains(Text.localTime(1_790_000_000)), "\(heading)")
            #expect(page.contains("<div class=\"facts\"><span>30 s</span>"), "\(page.prefix(1500))")
        }
    }

    /// A name the server cannot open (a backslash) is not listed either: it was listed, and
    /// in `?all=1` ZIPs, while its page, downloads and delete were 404.
    @Test func namesThatCannotBeOpenedAreNotListed() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try FileManager.default.copyItem(atPath: f.folder + "/20260101080000.csv", toPath: f.folder + "/back\\slash.csv")
        try await f.app().test(.router) { client in
            let list = try await client.execute(uri: "/api/recordings", method: .get)
            #expect(String(buffer: list.body).contains("20260101080000") && !String(buffer: list.body).contains("slash"))
            let zip = try await client.execute(uri: "/download.zip?all=1", method: .get)
            #expect(zip.status == .ok && !String(buffer: zip.body).contains("slash"))
        }
    }

    /// A stick's folder served on a laptop holds the offload's manifest: no recording (the
    /// list showed a card "manifest" with the badge "no metadata").
    @Test func anOffloadManifestIsNotARecording() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try "file,size_bytes,sha256,copied_at\n20260101080000.csv,10,\(String(repeating: "0", count: 64)),2026-01-01T08:10:00Z\n"
            .write(toFile: f.folder + "/manifest.csv", atomically: false, encoding: .utf8)
        try await f.app().test(.router) { client in
            let list = String(buffer: try await client.execute(uri: "/api/recordings", method: .get).body)
            #expect(list.contains("20260101080000") && !list.contains("manifest"), "\(list)")
            let status = String(buffer: try await client.execute(uri: "/api/status", method: .get).body)
            #expect(status.contains("\"files\":1"), "\(status)")
            #expect(try await client.execute(uri: "/recordings/manifest", method: .get).status == .notFound)
        }
    }

    @Test func deleteNeedsTheCSRFTokenAndRemovesBothFiles() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try await f.app().test(.router) { client in
            let without = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete)
            #expect(without.status == .forbidden)
            let wrong = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: "0123"])
            #expect(wrong.status == .forbidden)
            #expect(f.exists("20260101080000.csv"))
            let t = try await token(client)
            let ok = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(ok.status == .ok)
            #expect(!f.exists("20260101080000.csv") && !f.exists("20260101080000.json"))
            let again = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(again.status == .notFound)
        }
    }

    @Test func theSummaryIsCachedOnFirstViewListedAndDeletedWithTheRecording() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 120)
        try await f.app().test(.router) { client in
            #expect(!f.exists("20260101080000.summary.json"))
            let page = try await client.execute(uri: "/recordings/20260101080000", method: .get)
            #expect(String(buffer: page.body).contains("<h2>Timeline</h2>"))
            #expect(f.exists("20260101080000.summary.json"))
            let list = try await client.execute(uri: "/api/recordings", method: .get)
            let items = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]]
            #expect((items?.first?["distance_m"] as? Double).map { $0 > 0 } == true)
            let t = try await token(client)
            let ok = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(ok.status == .ok)
            #expect(!f.exists("20260101080000.summary.json") && !f.exists("20260101080000.csv"))
        }
    }

    @Test("a finished part of a recording still going on is not deleted, also while the recorder moves to a new file")
    func partsOfARecordingGoingOnStay() async throws {
        let f = try WebFixture()
        // Parts 1 and 2 finished by rotation, part 3 being written (by another `record`).
        try f.addRotatedRide(lastEndedCleanly: false, lastEnd: "recording")
        let names = WebFixture.rotatedNames
        // A second recording, cut short by rotation: its next part is a CSV whose metadata is
        // not written yet (the recorder between the two).
        try f.addRecording("20260102080000", endReason: "rotated", rotated: ("other-uuid", 1, nil, 0))
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 }
        try await f.app(clock: clock).test(.router) { client in
            let t = try await token(client)
            let first = try await client.execute(uri: "/api/recordings/\(names[0])", method: .delete, headers: [.csrfToken: t])
            #expect(first.status == .conflict && String(buffer: first.body).contains("still being recorded"), "\(String(buffer: first.body))")
            #expect(f.exists(names[0] + ".csv") && f.exists(names[0] + ".json"))
            // Not while a new file without metadata is being written.
            try (CSVFormat.headerLine + "\n").write(toFile: f.folder + "/20260102081000.csv", atomically: false, encoding: .utf8)
            let moving = try await client.execute(uri: "/api/recordings/20260102080000", method: .delete, headers: [.csrfToken: t])
            #expect(moving.status == .conflict && String(buffer: moving.body).contains("new file"), "\(String(buffer: moving.body))")
            #expect(f.exists("20260102080000.csv"))
            // Once that file is gone (or described), the finished recording may go.
            try FileManager.default.removeItem(atPath: f.folder + "/20260102081000.csv")
            let gone = try await client.execute(uri: "/api/recordings/20260102080000", method: .delete, headers: [.csrfToken: t])
            #expect(gone.status == .ok, "\(String(buffer: gone.body))")
        }
    }

    @Test func theRecordingBeingWrittenCannotBeDeleted() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", endedCleanly: false, endReason: "recording")
        try f.addRecording("20260102080000", endedCleanly: false, endReason: "recording")
        let live = FakeLive()
        live.state.withLock { $0 = ("recording", f.folder + "/20260101080000.csv", []) }
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 }
        try await f.app(live: live, clock: clock).test(.router) { client in
            let t = try await token(client)
            let current = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(current.status == .conflict)
            #expect(String(buffer: current.body).contains("being recorded"))
            // Not the daemon's, but unfinished and written just now: maybe another `record`.
            let recent = try await client.execute(uri: "/api/recordings/20260102080000", method: .delete, headers: [.csrfToken: t])
            #expect(recent.status == .conflict)
            #expect(f.exists("20260101080000.csv") && f.exists("20260102080000.csv"))
            // The list says of both what their pages say: recording now, not "unfinished".
            let list = String(buffer: try await client.execute(uri: "/", method: .get).body)
            for name in ["20260101080000", "20260102080000"] {
                let card = list.components(separatedBy: "data-name=\"\(name)\"").dropFirst().first?.components(separatedBy: "</li>").first ?? ""
                #expect(card.contains("recording now") && !card.contains(">unfinished<"), "\(name): \(card.prefix(400))")
            }
        }
    }

    /// A file without metadata just copied in under another program's name is not taken
    /// for a recording in progress ("recording now", not deletable for a minute).
    @Test func aForeignFileJustCopiedInIsNotRecordingNow() async throws {
        let f = try WebFixture()
        try (CSVFormat.headerLine + "\nL,W,1795729800.0,52.5,13.4,40,nan,nan,nan,4,nan,3\n")
            .write(toFile: f.folder + "/ride.csv", atomically: false, encoding: .utf8)
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 }
        try await f.app(clock: clock).test(.router) { client in
            let list = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(!list.contains("recording now"), "\(list.suffix(1500))")
            let t = try await token(client)
            let del = try await client.execute(uri: "/api/recordings/ride", method: .delete, headers: [.csrfToken: t])
            #expect(del.status == .ok, "\(String(buffer: del.body))")
        }
    }

    /// An empty CSV says so (its page said only "No metadata beside the CSV").
    @Test func anEmptyFileSaysItIsEmpty() async throws {
        let f = try WebFixture()
        #expect(FileManager.default.createFile(atPath: f.folder + "/20260101080000.csv", contents: Data()))
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 + 3600 }
        try await f.app(clock: clock).test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("The file is empty (0 bytes): nothing was recorded in it."), "\(page.suffix(2000))")
        }
    }

    /// A writer that has written nothing for minutes (a stalled card, a paused recorder)
    /// still holds its file's lock: the page refuses to delete the file from under it (the
    /// minute alone let it, and the recording was lost). Once the lock is gone, an old
    /// unfinished file (cut off by a power cut) may go.
    @Test func aFileItsWriterHoldsLockedIsNotDeletedHoweverOld() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", endedCleanly: false, endReason: "recording")
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 + 3600 }
        let writer = try FileDescriptor.open(f.folder + "/20260101080000.csv", .readWrite, options: [.closeOnExec])
        #expect(try writer.tryLockExclusive())
        try await f.app(clock: clock).test(.router) { client in
            let t = try await token(client)
            let held = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(held.status == .conflict && String(buffer: held.body).contains("locked by its writer"), "\(String(buffer: held.body))")
            #expect(f.exists("20260101080000.csv"))
            try writer.close()
            let free = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: t])
            #expect(free.status == .ok, "\(String(buffer: free.body))")
            #expect(!f.exists("20260101080000.csv"))
        }
    }

    @Test func aRecordingClosedAfterWriteErrorsJustNowIsFinishedNotLive() async throws {
        // A full card: the writer closed the file with `duration, write-errors` a moment ago.
        let f = try WebFixture()
        try f.addRecording("20260101080000", endedCleanly: false, endReason: "duration" + FileEnding.writeErrorsSuffix, rowsLost: 602)
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 }
        try await f.app(clock: clock).test(.router) { client in
            let list = try await client.execute(uri: "/api/recordings", method: .get)
            let items = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]]
            #expect(items?.first?["health"] as? [String] == ["write errors"])
            #expect(items?.first?["writing"] as? Bool == false)
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(!page.contains("recording now") && !page.contains("Still being written"))
            #expect(page.contains("ended (duration) after write errors"))
            #expect(page.contains("602 rows were lost to 4 write errors"))
            // Said once: the summary's findings, not the metadata's sentences again.
            #expect(page.components(separatedBy: "after write errors").count - 1 == 1, "\(page)")
            #expect(page.components(separatedBy: "602 rows").count - 1 == 1)
            #expect(!page.contains("power"))
        }
    }

    @Test func controlButtonsNeedTheTokenAndReachTheRecorder() async throws {
        let f = try WebFixture()
        let live = FakeLive()
        try await f.app(live: live).test(.router) { client in
            let refused = try await client.execute(uri: "/api/start", method: .post)
            #expect(refused.status == .forbidden)
            #expect(live.state.withLock { $0.commands }.isEmpty)
            let t = try await token(client)
            let start = try await client.execute(uri: "/api/start", method: .post, headers: [.csrfToken: t])
            #expect(start.status == .ok)
            let label = try await client.execute(uri: "/api/label", method: .post, headers: [.csrfToken: t], body: ByteBuffer(string: "{\"label\":\"C\"}"))
            #expect(label.status == .ok)
            let stop = try await client.execute(uri: "/api/stop", method: .post, headers: [.csrfToken: t])
            #expect(stop.status == .ok)
            #expect(live.state.withLock { $0.commands } == ["start", "label C", "stop"])
            let status = try await client.execute(uri: "/api/status", method: .get)
            #expect(String(buffer: status.body).contains("\"live\":true"))
            let events = try await client.execute(uri: "/events", method: .get)
            #expect(String(buffer: events.body).components(separatedBy: "data: {").count - 1 == 2)
        }
    }

    /// Behind a password the live stream ends when its session does (logged out in another
    /// tab, expired): a tab kept receiving the status for up to 600 events after it.
    @Test func theLiveStreamEndsWithItsSession() async throws {
        let f = try WebFixture()
        let clock = TestClock()
        /// Each status read moves the clock past a session's life.
        final class AgingLive: LiveControl, Sendable {
            let live = FakeLive(), clock: TestClock
            init(_ clock: TestClock) { self.clock = clock }
            func exchange(_ request: [UInt8]) throws -> [UInt8] {
                clock.now.withLock { $0 += WebAccess.sessionSeconds + 1 }
                return try live.exchange(request)
            }
        }
        try await f.app(password: "correct horse", live: AgingLive(clock), clock: clock, events: (5, .zero)).test(.router) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let login = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=correct+horse"))
            let cookie = String(try #require(login.headers[.setCookie]).prefix { $0 != ";" })
            let events = try await client.execute(uri: "/events", method: .get, headers: [.cookie: cookie])
            #expect(events.status == .ok)
            #expect(String(buffer: events.body).components(separatedBy: "data: {").count - 1 == 1, "\(String(buffer: events.body))")
        }
    }

    @Test func serveWithoutARecorderRefusesControl() async throws {
        let f = try WebFixture()
        try await f.app().test(.router) { client in
            let t = try await token(client)
            let r = try await client.execute(uri: "/api/start", method: .post, headers: [.csrfToken: t])
            #expect(r.status == .conflict)
        }
    }

    @Test func offLoopbackEverythingNeedsALogin() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        let clock = TestClock()
        try await f.app(password: "correct horse", clock: clock).test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/login")
            for uri in ["/api/recordings", "/recordings/20260101080000.csv", "/download.zip?all=1", "/events"] {
                let r = try await client.execute(uri: uri, method: .get)
                #expect(r.status == .seeOther || r.status == .unauthorized, "\(uri)")
                #expect(!String(buffer: r.body).contains("Source, Label"))
                // HEAD answers as GET would (it said 401 where GET sent to the login page).
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == r.status && head.headers[.location] == r.headers[.location], "\(uri): \(head.status)")
                #expect(head.body.readableBytes == 0)
            }
            let del = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete)
            #expect(del.status == .unauthorized)

            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let wrong = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=nope"))
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=correct+horse"))
            #expect(right.status == .seeOther)
            let setCookie = try #require(right.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            let cookie = String(setCookie.prefix { $0 != ";" })
            let list = try await client.execute(uri: "/api/recordings", method: .get, headers: [.cookie: cookie])
            #expect(list.status == .ok)
            // The session's token, not the one of another session or none.
            let t = try await token(client, cookie: cookie)
            let noToken = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.cookie: cookie])
            #expect(noToken.status == .forbidden)
            let ok = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.cookie: cookie, .csrfToken: t])
            #expect(ok.status == .ok)
        }
    }

    @Test func failedLoginsAreRateLimited() async throws {
        let f = try WebFixture()
        let clock = TestClock()
        try await f.app(password: "correct horse", clock: clock).test(.router) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            for _ in 0..<WebAccess.allowedFailures {
                let r = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=guess"))
                #expect(r.status == .unauthorized)
            }
            // Even the right password waits now.
            let blocked = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=correct+horse"))
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
            clock.now.withLock { $0 += WebAccess.failureWindowSeconds + 1 }
            let later = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: "password=correct+horse"))
            #expect(later.status == .seeOther)
        }
    }

    @Test func aPublicAddressWithoutAPasswordDoesNotStart() {
        let c = WebConfiguration(folder: "/tmp", listen: ListenAddress(host: "0.0.0.0", port: 8080))
        #expect(c.refusal != nil)
        #expect(WebConfiguration(folder: "/tmp", listen: ListenAddress(host: "127.0.0.1", port: 8080)).refusal == nil)
        #expect(WebConfiguration(folder: "/tmp", listen: ListenAddress(host: "127.evil.example", port: 8080)).refusal != nil)
    }

    @Test func dnsRebindingHostsAreRefusedOnLoopback() {
        #expect(!AccessMiddleware.isLoopbackHost("attacker.example:8080"))
        #expect(!AccessMiddleware.isLoopbackHost("127.0.0.1.attacker.example"))
        #expect(AccessMiddleware.isLoopbackHost("127.0.0.1:8080"))
        #expect(AccessMiddleware.isLoopbackHost("localhost:8080"))
        #expect(AccessMiddleware.isLoopbackHost("[::1]:8080"))
    }
}

@Suite struct WebUnitTests {
    @Test func rangeParsing() {
        #expect(ByteRange.parse("bytes=0-9", length: 100) == .part(0...9))
        #expect(ByteRange.parse("bytes=90-", length: 100) == .part(90...99))
        #expect(ByteRange.parse("bytes=-5", length: 100) == .part(95...99))
        #expect(ByteRange.parse("bytes=-500", length: 100) == .part(0...99))
        #expect(ByteRange.parse("bytes=100-", length: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=9-0", length: 100) == .whole)
        #expect(ByteRange.parse(nil, length: 100) == .whole)
    }

    @Test func zipLengthIsExactAndZip64RecordsAppearWhenNeeded() {
        let small = ZipStream.Entry(archiveName: "a.csv", fileName: "a.csv", length: 10, modifiedEpoch: 1_790_000_000)
        let huge = ZipStream.Entry(archiveName: "b.csv", fileName: "b.csv", length: 5 << 30, modifiedEpoch: 1_790_000_000)
        #expect(ZipStream(entries: [small]).totalLength == 30 + 5 + 10 + 16 + 46 + 5 + 22)
        #expect(ZipStream.localHeader(huge).count == 30 + 5 + 20)
        #expect(ZipStream.descriptor(huge, crc: 0).count == 24)
        let end = ZipStream.end(count: 2, centralSize: 100, centralOffset: 5 << 30)
        #expect(end.count == 56 + 20 + 22)
    }

    @Test func crc32MatchesTheKnownCheckValue() {
        var c = CRC32()
        Array("123456789".utf8).withUnsafeBytes { c.update($0) }
        #expect(c.value == 0xCBF4_3926)
    }

    @Test func listenAddresses() {
        #expect(ListenAddress.parse("0.0.0.0:80") == ListenAddress(host: "0.0.0.0", port: 80))
        #expect(ListenAddress.parse("[::1]:8080") == ListenAddress(host: "::1", port: 8080))
        #expect(ListenAddress.parse(":9000") == ListenAddress(host: "127.0.0.1", port: 9000))
        #expect(ListenAddress.parse("host:99999") == nil)
        #expect(ListenAddress.parse("a:b:8080") == nil)   // a bare IPv6 address needs brackets
        #expect(ListenAddress.parse("::1") == nil)
        // A port alone is no host (it was "8080:8080, reachable from other machines").
        #expect(ListenAddress.parse("8080") == nil && ListenAddress.parse("8080:8080") == nil)
        #expect(ListenAddress.parse("raspberrypi.local") == ListenAddress(host: "raspberrypi.local", port: 8080))
        #expect(ListenAddress.refusal(of: "8080").contains("a port alone: write 0.0.0.0:8080"))
        #expect(!ListenAddress.refusal(of: "80800").contains("0.0.0.0:80800") && !ListenAddress.refusal(of: "0").contains("0.0.0.0:0"))
        #expect(ListenAddress(host: "::1", port: 1).isLoopback)
        #expect(!ListenAddress(host: "127.0.0.1.nip.io", port: 1).isLoopback)
    }
}
