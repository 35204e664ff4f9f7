import Foundation
import Hummingbird
import HummingbirdTesting
import MotionAnalysis
@testable import MotionSystem
@testable import MotionWeb
import NIOCore
import Testing

/// The web page runs inside the daemon: it never starts an analysis or export that would not
/// fit in the memory free (`AnalysisMemory`), so the kernel does not end the recorder for a
/// page view, and it says why, and what to do instead.
@Suite struct WebMemoryTests {
    let name = "20260101080000"

    /// 60 GPS rows: a summary needs 60 × 160 B, the exports 60 × 400 B (GPX) and more.
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
            // The downloads it would decline are not offered as links.
            #expect(!html.contains("href=\"/recordings/\(name).gpx\"") && html.contains("<span class=\"button off\" title=\"too long for this logger's memory\">GPX</span>"))
            #expect(html.contains("run <code>motionlog export --format gpx</code>, <code>motionlog export --format geojson</code> there."))
            #expect(!f.exists("\(name).summary.json"))
            let api = try await client.execute(uri: "/api/recordings/\(name)/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any]
            #expect(body?["summary"] is NSNull && (body?["note"] as? String)?.hasPrefix("Too long to summarise") == true)
            for (kind, what) in [("gpx", "export as GPX"), ("geojson", "export as GeoJSON"), ("timeline.json", "export the timeline of")] {
                for method in [HTTPRequest.Method.get, .head] {
                    let r = try await client.execute(uri: "/recordings/\(name).\(kind)", method: method)
                    #expect(r.status == .serviceUnavailable, "\(kind) \(method): \(r.status)")
                    if method == .get {
                        #expect(String(buffer: r.body).contains("Too long to \(what) on this logger"), "\(String(buffer: r.body))")
                    }
                }
            }
            #expect(!f.exists("\(name).summary.json"))
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
            #expect(html.contains("href=\"/recordings/\(name).gpx\"") && !html.contains("button off"))
        }
        try await f.app(availableMemory: 15_000).test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(!html.contains("Too long to summarise") && html.contains("<h2>Timeline</h2><ul class=\"timeline\">"), "\(html.components(separatedBy: "<h2>Timeline</h2>").last?.prefix(200) ?? "")")
        }
    }
}

/// The estimate and the sentence (`AnalysisMemory`), and the free memory the daemon asks.
@Suite struct AnalysisMemoryTests {
    @Test func workThatTakesMoreThanHalfTheFreeMemoryIsDeclined() throws {
        // A week at 1 Hz on a Pi Zero with 300 MB free: the summary fits, a GPX does not.
        let fixes = 7 * 86_400
        #expect(AnalysisMemory.refusal(.summary, locationRows: fixes, availableBytes: 300 << 20) == nil)
        let gpx = try #require(AnalysisMemory.refusal(.gpx, locationRows: fixes, availableBytes: 300 << 20))
        #expect(gpx.hasPrefix("Too long to export as GPX on this logger: its 604800 GPS rows need about 231 MB of memory; 300 MB are free, and the recorder must keep half."), "\(gpx)")
        #expect(gpx.hasSuffix("run `motionlog export --format gpx` there."))
        // With 80 MB free a day fits as GPX or a timeline, not as GeoJSON (its geometry is
        // encoded whole).
        #expect(AnalysisMemory.refusal(.gpx, locationRows: 86_400, availableBytes: 80 << 20) == nil)
        #expect(AnalysisMemory.refusal(.timeline, locationRows: 86_400, availableBytes: 80 << 20) == nil)
        #expect(AnalysisMemory.refusal(.geojson, locationRows: 86_400, availableBytes: 80 << 20)?.contains("--format geojson") == true)
        #expect(AnalysisMemory.refusal(.timeline, locationRows: 7 * 86_400, availableBytes: 300 << 20)?.contains("--format timeline") == true)
        // Two weeks at 1 Hz, or a week at 10 Hz: neither.
        #expect(AnalysisMemory.refusal(.summary, locationRows: 14 * 86_400, availableBytes: 300 << 20)?.contains("185 MB") == true)
        #expect(AnalysisMemory.refusal(.summary, locationRows: 7 * 864_000, availableBytes: 300 << 20)?.contains("summarise") == true)
        // Unknown free memory, no GPS rows, or a count that would overflow: never a crash.
        #expect(AnalysisMemory.refusal(.gpx, locationRows: fixes, availableBytes: nil) == nil)
        #expect(AnalysisMemory.refusal(.gpx, locationRows: 0, availableBytes: 1) == nil)
        #expect(AnalysisMemory.refusal(.timeline, locationRows: .max, availableBytes: 1 << 30) != nil)
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
