import Foundation
import Hummingbird
import HummingbirdTesting
import MotionAnalysis
@testable import MotionSystem
@testable import MotionWeb
import NIOCore
import Synchronization
import Testing

/// The web page runs inside the daemon: it never starts an analysis that would not fit in
/// the memory free (`AnalysisMemory`), so the kernel does not end the recorder for a page
/// view, and it says why, and what to do instead. The track downloads hold no track (they
/// read it again as they write) and are always served.
@Suite struct WebMemoryTests {
    let name = "20260101080000"

    /// 60 GPS rows without a stop: a summary needs 60 × 160 B.
    func fixture() throws -> WebFixture {
        let f = try WebFixture()
        try f.addRecording(name, seconds: 60)
        return f
    }

    @Test func aRecordingTooLongForTheFreeMemoryIsNotAnalysedHereAndThePageSaysWhy() async throws {
        let f = try fixture()
        let (rounds, roundDone) = AsyncStream<Int>.makeStream()
        // 15 000 bytes free: half holds 46 fixes of a summary (160 bytes each); the ride
        // has 60 without a stop.
        try await f.app(summaryRounds: { roundDone.yield($0) }, availableMemory: 15_000).test(.router) { client in
            _ = try await client.execute(uri: "/api/recordings", method: .get)
            var it = rounds.makeAsyncIterator()
            #expect(await it.next() == 0)      // the background round gave it up
            let page = try await client.execute(uri: "/recordings/\(name)", method: .get)
            let html = String(buffer: page.body)
            #expect(page.status == .ok && html.contains("Too long to summarise on this logger: more than 46 GPS fixes without a stop or a long loss of signal need more than 1 MB of memory"),
                    "\(html.components(separatedBy: "<h2>Timeline</h2>").last?.prefix(400) ?? "")")
            #expect(html.contains("not computed on this logger (see Timeline)"))
            // The track downloads are offered and served (streamed, the track read again);
            // without a summary there is no timeline to offer.
            #expect(html.contains("href=\"/recordings/\(name).gpx\"") && html.contains("href=\"/recordings/\(name).geojson\""))
            #expect(!html.contains("timeline.json"))
            let gpx = try await client.execute(uri: "/recordings/\(name).gpx", method: .get)
            #expect(gpx.status == .ok && String(buffer: gpx.body).components(separatedBy: "<trkpt").count == 61)
            let geojson = try await client.execute(uri: "/recordings/\(name).geojson", method: .get)
            #expect(geojson.status == .ok && String(buffer: geojson.body).hasSuffix("\"type\":\"Feature\"}\n"))
            #expect(!f.exists("\(name).summary.json"))
            let api = try await client.execute(uri: "/api/recordings/\(name)/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any]
            #expect(body?["summary"] is NSNull && (body?["note"] as? String)?.hasPrefix("Too long to summarise") == true)
            // The timeline needs the summary: declined without reading the recording again.
            for method in [HTTPRequest.Method.get, .head] {
                let r = try await client.execute(uri: "/recordings/\(name).timeline.json", method: method)
                #expect(r.status == .serviceUnavailable, "\(method): \(r.status)")
                if method == .get {
                    #expect(String(buffer: r.body).contains("Too long to export its timeline on this logger: more than 46 GPS fixes"),
                            "\(String(buffer: r.body))")
                    #expect(String(buffer: r.body).contains("run `motionlog export --format timeline` there"))
                }
            }
            #expect(!f.exists("\(name).summary.json"))
        }
    }

    /// A summary given up is tried again once the memory free holds half as many fixes
    /// again, not before.
    @Test func aSummaryGivenUpIsTriedAgainWhenMuchMoreMemoryIsFree() async throws {
        let f = try fixture()
        let free = Atomic<Int>(15_000)
        try await f.app(memory: { free.load(ordering: .relaxed) }).test(.router) { client in
            func page() async throws -> String {
                String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            }
            #expect(try await page().contains("Too long to summarise on this logger: more than 46 GPS fixes"))
            // 68 fixes fit: not half as many again as 46.
            free.store(22_000, ordering: .relaxed)
            #expect(try await page().contains("more than 46 GPS fixes"))
            let timeline = try await client.execute(uri: "/recordings/\(name).timeline.json", method: .get)
            #expect(timeline.status == .serviceUnavailable && String(buffer: timeline.body).contains("more than 46 GPS fixes"))
            #expect(!f.exists("\(name).summary.json"))
            free.store(64 << 20, ordering: .relaxed)
            let html = try await page()
            #expect(!html.contains("Too long") && html.contains("<h2>Timeline</h2><ul class=\"timeline\">"))
            #expect(f.exists("\(name).summary.json"))
        }
        #expect(SummaryRefusals.retries(AnalysisMemory.TooLong(heldFixLimit: 46), limit: 69) == false)
        #expect(SummaryRefusals.retries(AnalysisMemory.TooLong(heldFixLimit: 46), limit: 72) == true)
        #expect(SummaryRefusals.retries(AnalysisMemory.TooLong(heldFixLimit: 46), limit: nil) == true)
    }

    /// A track longer than a download may hold is read again while it is written: the
    /// same bytes as the track held whole.
    @Test func trackDownloadsReadALongTrackAgainWithTheSameBytes() async throws {
        let f = try fixture()
        let held = Mutex<[String: [UInt8]]>([:])
        try await f.app().test(.router) { client in
            for kind in ["gpx", "geojson"] {
                let body = Array(buffer: try await client.execute(uri: "/recordings/\(name).\(kind)", method: .get).body)
                held.withLock { $0[kind] = body }
            }
        }
        try await f.app(heldTrackPoints: 10).test(.router) { client in
            for kind in ["gpx", "geojson"] {
                let r = try await client.execute(uri: "/recordings/\(name).\(kind)", method: .get)
                let expected = held.withLock { $0[kind] } ?? []
                let same = Array(buffer: r.body) == expected
                #expect(r.status == .ok && same && expected.count > 1000, "\(kind)")
            }
        }
    }

    /// Asked for first, the timeline download computes the summary itself, gives up past the
    /// limit, and the page then says why without trying again.
    @Test func aTimelineAskedForFirstGivesUpAndIsRemembered() async throws {
        let f = try fixture()
        try await f.app(availableMemory: 15_000).test(.router) { client in
            let r = try await client.execute(uri: "/recordings/\(name).timeline.json", method: .get)
            #expect(r.status == .serviceUnavailable && String(buffer: r.body).contains("Too long to export its timeline"))
            let html = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(html.contains("Too long to summarise on this logger: more than 46 GPS fixes"))
            let head = try await client.execute(uri: "/recordings/\(name).timeline.json", method: .head)
            #expect(head.status == .serviceUnavailable)
        }
        try await f.app(availableMemory: 64 << 20).test(.router) { client in
            let r = try await client.execute(uri: "/recordings/\(name).timeline.json", method: .get)
            #expect(r.status == .ok && String(buffer: r.body).hasPrefix("["), "\(r.status)")
        }
    }

    /// The summary holds one stretch between stops at a time: 40 minutes of 4-minute rides
    /// and 6-minute stops (2400 fixes, 384 000 bytes if all were held) are summarised where
    /// 1000 fixes fit, and given up where 400 do not hold a stretch.
    @Test func aLongRecordingWithStopsIsSummarisedAStretchAtATime() async throws {
        let f = try WebFixture()
        try f.addRecording(name, seconds: 2400) { t in
            let cycle = (t / 600).rounded(.down), inCycle = t - cycle * 600
            let metres = 5 * (cycle * 240 + min(inCycle, 240))
            return (metres / 111_195, 0, inCycle < 240 ? 5 : 0)
        }
        let (rounds, roundDone) = AsyncStream<Int>.makeStream()
        try await f.app(summaryRounds: { roundDone.yield($0) }, availableMemory: 320_000).test(.router) { client in
            _ = try await client.execute(uri: "/api/recordings", method: .get)
            var it = rounds.makeAsyncIterator()
            #expect(await it.next() == 1)
            #expect(f.exists("\(name).summary.json"))
            let api = try await client.execute(uri: "/api/recordings/\(name)/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any]
            let summary = body?["summary"] as? [String: Any], timeline = summary?["timeline"] as? [[String: Any]]
            #expect(timeline?.filter { $0["type"] as? String == "stop" }.count == 4, "\(timeline ?? [])")
            #expect(!(body?["note"] is String))
        }
        try FileManager.default.removeItem(atPath: f.folder + "/\(name).summary.json")
        try await f.app(availableMemory: 128_000).test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(html.contains("Too long to summarise on this logger: more than 400 GPS fixes without a stop"), "\(html.components(separatedBy: "<h2>Timeline</h2>").last?.prefix(300) ?? "")")
            #expect(!f.exists("\(name).summary.json"))
        }
    }

    /// With the memory for it the same recording is summarised and exported; its cached
    /// summary is then shown even where the memory is short (nothing is computed).
    @Test func withTheMemoryForItItIsAnalysedAndACachedSummaryIsAlwaysShown() async throws {
        let f = try fixture()
        let (rounds, roundDone) = AsyncStream<Int>.makeStream()
        try await f.app(summaryRounds: { roundDone.yield($0) }, availableMemory: 64 << 20).test(.router) { client in
            _ = try await client.execute(uri: "/api/recordings", method: .get)
            var it = rounds.makeAsyncIterator()
            #expect(await it.next() == 1)
            #expect(f.exists("\(name).summary.json"))
            let gpx = try await client.execute(uri: "/recordings/\(name).gpx", method: .get)
            #expect(gpx.status == .ok && String(buffer: gpx.body).contains("<trkpt"))
            let html = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(html.contains("href=\"/recordings/\(name).gpx\""))
        }
        try await f.app(availableMemory: 15_000).test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(!html.contains("Too long to summarise") && html.contains("<h2>Timeline</h2><ul class=\"timeline\">"), "\(html.components(separatedBy: "<h2>Timeline</h2>").last?.prefix(200) ?? "")")
        }
    }
}

/// The limit and the sentence (`AnalysisMemory`), and the free memory the daemon asks.
@Suite struct AnalysisMemoryTests {
    @Test func theSummaryMayHoldWhatFitsInHalfTheFreeMemory() throws {
        // A Pi Zero with 300 MB free: 983 040 fixes of 160 bytes in half of it.
        #expect(AnalysisMemory.heldFixLimit(availableBytes: 300 << 20) == 983_040)
        #expect(AnalysisMemory.heldFixLimit(availableBytes: nil) == nil)
        #expect(AnalysisMemory.heldFixLimit(availableBytes: 0) == 1)
        let tooLong = AnalysisMemory.TooLong(heldFixLimit: 983_040)
        #expect(tooLong.description.hasPrefix("Too long to summarise on this logger: more than 983040 GPS fixes without a stop or a long loss of signal need more than 150 MB of memory"), "\(tooLong)")
        #expect(tooLong.description.hasSuffix("run `motionlog summary` there."))
        // A limit whose bytes would overflow: never a crash.
        #expect(AnalysisMemory.TooLong(heldFixLimit: .max).sentence(what: "x", command: "y").contains("more than"))
    }

    @Test func theFreeMemoryIsReadFromTheKernel() throws {
        let available = try #require(SystemInfo.availableMemoryBytes())
        #expect(available > 1 << 20 && available < 1 << 50)
        // Where /proc/meminfo is hidden: the free pages, never more than what is available
        // (the page cache is left out; a little slack for memory freed in between).
        let free = try #require(SystemInfo.freePages())
        #expect(free > 0 && free <= available + 64 << 20, "\(free) free, \(available) available")
    }
}
