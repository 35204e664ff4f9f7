import Foundation
import Hummingbird
import HummingbirdTesting
import MotionAnalysis
import MotionCore
@testable import MotionWeb
import NIOCore
import Testing

/// A recording rotated into several files is one recording on the page: one card, one
/// page analysing all parts together, one selection covering every file.
@Suite struct WebRotatedRecordingTests {
    let names = WebFixture.rotatedNames

    /// The cards (`<li>` of the list) of a list page.
    func cards(_ html: String) -> [Substring] {
        guard let list = html.range(of: "<ul class=\"recs\" id=\"recs\">"), let end = html.range(of: "</ul>", range: list.upperBound..<html.endIndex) else { return [] }
        return html[list.upperBound..<end.lowerBound].components(separatedBy: "<li ").dropFirst().map { Substring($0) }
    }

    /// The files a card's checkbox selects (what Download / Delete selected act on).
    func selectedFiles(_ card: Substring) -> [String] {
        guard let r = card.range(of: "data-files=\"") else { return [] }
        return card[r.upperBound...].prefix { $0 != "\"" }.split(separator: "/").map(String.init)
    }

    @Test func theListShowsOneCardWithTheWholeRecordingsTotals() async throws {
        let f = try WebFixture()
        try f.addRotatedRide()
        try f.addRecording("20260102080000", start: WebFixture.rotatedStart + 86_400)
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(html.contains("2 recordings (4 files)"))
            let cards = cards(html)
            #expect(cards.count == 2)
            let ride = try #require(cards.last)
            #expect(ride.contains("href=\"/recordings/\(names[0])\""))
            #expect(ride.contains("<span>30 min</span>"))           // 3 × 599.9 s
            #expect(ride.contains("<span>3 files</span>"))
            #expect(!ride.contains("part 2"))
            #expect(selectedFiles(ride) == names)
            // A single-file recording's card is as it was: no parts, one file selected.
            #expect(selectedFiles(try #require(cards.first)) == ["20260102080000"])
            #expect(cards.first?.contains(" files</span>") == false)
            let status = try await client.execute(uri: "/api/status", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: status.body)) as? [String: Any]
            #expect(body?["recordings"] as? Int == 2 && body?["files"] as? Int == 4)
            // The API still lists files.
            let list = try await client.execute(uri: "/api/recordings", method: .get)
            #expect((try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]])?.count == 4)
        }
    }

    /// Two files with one recording id and one part number (two `fuse` outputs of one
    /// recording) are two recordings, not one of twice the length.
    @Test func twoFilesOfOnePartNumberAreTwoRecordings() async throws {
        let f = try WebFixture()
        let start = WebFixture.rotatedStart
        try f.addRecording("calibrated", start: start, seconds: 60, rotated: (id: "ride-fused", part: 1, previous: nil, elapsed: 0))
        try f.addRecording("raw", start: start, seconds: 60, rotated: (id: "ride-fused", part: 1, previous: nil, elapsed: 0))
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let cards = cards(html)
            #expect(cards.count == 2 && html.contains("2 recordings") && !html.contains("2 recordings ("), "\(cards)")
            #expect(cards.allSatisfy { $0.contains("<span>1 min</span>") && !$0.contains(" files</span>") }, "\(cards)")
            let summary = try await client.execute(uri: "/api/recordings/calibrated/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: summary.body)) as? [String: Any]
            #expect(body?["parts"] as? [String] == ["calibrated"], "\(String(describing: body?["parts"]))")
        }
        // The parts whose number is theirs alone stay one recording.
        try f.addRecording("second", start: start + 60, seconds: 60, rotated: (id: "ride-fused", part: 2, previous: "raw", elapsed: 60))
        try f.addRecording("third", start: start + 120, seconds: 60, rotated: (id: "ride-fused", part: 3, previous: "second", elapsed: 120))
        try await f.app().test(.router) { client in
            let cards = cards(String(buffer: try await client.execute(uri: "/", method: .get).body))
            #expect(cards.count == 3, "\(cards)")
            #expect(cards.contains { selectedFiles($0) == ["second", "third"] }, "\(cards.map(selectedFiles))")
        }
    }

    @Test func thePageAnalysesAllPartsTogether() async throws {
        let f = try WebFixture()
        try f.addRotatedRide()
        try await f.app().test(.router) { client in
            let page = try await client.execute(uri: "/recordings/\(names[0])", method: .get)
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            // The stop from 6:00 to 14:00 straddles the first rotation: whole only together.
            let timeline = try #require(html.components(separatedBy: "<h2>Timeline</h2>").last)
            #expect(timeline.components(separatedBy: "<b>Stop</b>").count == 2)
            #expect(timeline.contains("<b>Stop</b><span class=\"facts\">8 min "))
            #expect(html.contains("<span>30 min</span>"))
            for n in names {
                #expect(html.contains("href=\"/recordings/\(n).csv\""))
                #expect(html.contains("href=\"/recordings/\(n).json\""))
            }
            // The summary of all three, cached beside the first.
            let cached = try SummaryJSON.decode(Array(try Data(contentsOf: URL(fileURLWithPath: f.folder + "/\(names[0]).summary.json"))))
            #expect(cached.files.count == 3)
            #expect(cached.durationS > 1799)
            // A later part's page is the whole recording's.
            let later = try await client.execute(uri: "/recordings/\(names[2])", method: .get)
            #expect(later.status == .seeOther && later.headers[.location] == "/recordings/\(names[0])")
            // The exports cover every part: 1800 fixes, one per second.
            let gpx = String(buffer: try await client.execute(uri: "/recordings/\(names[0]).gpx", method: .get).body)
            #expect(gpx.components(separatedBy: "<trkpt").count - 1 == 1800)
            let story = try await client.execute(uri: "/recordings/\(names[1]).timeline.json", method: .get)
            #expect(story.status == .ok)
            #expect(story.headers[.contentDisposition]?.contains("\(names[0]).timeline.json") == true)
            // The raw files are still each their own.
            let csv = try await client.execute(uri: "/recordings/\(names[1]).csv", method: .get)
            #expect(csv.body.readableBytes == (try FileManager.default.attributesOfItem(atPath: f.folder + "/\(names[1]).csv")[.size] as? Int))
            // The summary API answers for the whole recording the file belongs to.
            let api = try await client.execute(uri: "/api/recordings/\(names[1])/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: Any]
            #expect(body?["parts"] as? [String] == names)
            #expect(((body?["summary"] as? [String: Any])?["duration_s"] as? Double).map { $0 > 1799 } == true)
        }
    }

    @Test func deletingTheSelectionDeletesEveryPart() async throws {
        let f = try WebFixture()
        try f.addRotatedRide()
        try await f.app().test(.router) { client in
            _ = try await client.execute(uri: "/recordings/\(names[0])", method: .get)      // caches the summary
            #expect(f.exists("\(names[0]).summary.json"))
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let token = try #require(csrfToken(in: html))
            let chosen = selectedFiles(try #require(cards(html).first))
            #expect(chosen == names)
            // What the page's Delete selected sends, one DELETE per selected file.
            for name in chosen {
                let r = try await client.execute(uri: "/api/recordings/\(name)", method: .delete, headers: [.csrfToken: token])
                #expect(r.status == .ok)
            }
            for n in names { #expect(!f.exists("\(n).csv") && !f.exists("\(n).json") && !f.exists("\(n).summary.json")) }
            let after = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(after.contains("0 recordings") && cards(after).isEmpty)
        }
    }

    @Test func theSelectionDownloadsEveryPartInOneZIP() async throws {
        let f = try WebFixture()
        try f.addRotatedRide()
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let chosen = selectedFiles(try #require(cards(html).first))
            let zip = try await client.execute(uri: "/download.zip?" + chosen.map { "name=" + $0 }.joined(separator: "&"), method: .get)
            #expect(zip.status == .ok)
            #expect(zip.headers[.contentDisposition]?.contains("filename=\"\(names[0]).zip\"") == true)
            let bytes = Array(buffer: zip.body)
            for n in names { #expect(bytes.firstRange(of: Array("\(n).csv".utf8)) != nil) }
        }
    }

    @Test func aRecordingMissingItsFirstPartListsTheRest() async throws {
        let f = try WebFixture()
        try f.addRotatedRide(present: [2, 3])
        try await f.app().test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(html.contains("1 recording (2 files)"))
            let card = try #require(cards(html).first)
            #expect(cards(html).count == 1)
            #expect(card.contains("href=\"/recordings/\(names[1])\""))
            #expect(card.contains("2 files (parts 2–3, 1 missing)") && card.contains("parts missing"))
            #expect(selectedFiles(card) == Array(names[1...]))
            let page = try await client.execute(uri: "/recordings/\(names[1])", method: .get)
            #expect(page.status == .ok)
            let text = String(buffer: page.body)
            #expect(text.contains("Not in this folder (deleted or offloaded): part 1."))
            #expect(text.contains("<span>20 min</span>"))
        }
    }

    /// A part missing between two here is said once, by the summary's finding (which names
    /// the files around it); the page's own sentence said it again.
    @Test func aPartMissingInTheMiddleIsSaidOnce() async throws {
        let f = try WebFixture()
        try f.addRotatedRide(present: [1, 3])
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/\(names[0])", method: .get).body)
            let health = page.components(separatedBy: "Health</h2>").dropFirst().first?.components(separatedBy: "</section>").first ?? ""
            #expect(health.contains("The recording&apos;s part 2 is missing between"), "\(health)")
            #expect(!health.contains("Not in this folder"), "\(health)")
            // The list of files still says which part is not there.
            #expect(page.contains("Not in this folder (deleted or offloaded): part 2."))
            #expect(page.contains("No data"), "the hole is a gap in the timeline")
        }
    }

    /// A part closed at the file system's size limit (FAT32's 4 GiB) was followed by another,
    /// as a rotated one, and so was one rotated after write errors: when the next is not
    /// in the folder, the page says so (it said nothing: only `rotated` counted).
    @Test func aPartClosedAtTheSizeLimitOrAfterWriteErrorsHadANextPart() async throws {
        for partEnd in [FileEnding.fileSizeLimitReason, FileEnding.rotatedReason + FileEnding.writeErrorsSuffix] {
            let f = try WebFixture()
            try f.addRotatedRide(present: [1, 2], partEnd: partEnd)
            try await f.app().test(.router) { client in
                let card = try #require(cards(String(buffer: try await client.execute(uri: "/", method: .get).body)).first)
                #expect(card.contains("2 files (parts 1–2, a later one missing)"), "\(partEnd): \(card)")
                let page = String(buffer: try await client.execute(uri: "/recordings/\(names[0])", method: .get).body)
                #expect(page.contains("Not in this folder (deleted or offloaded): the part after the last one here."), "\(partEnd)")
                if partEnd == FileEnding.fileSizeLimitReason {
                    #expect(page.contains("Its last part (part 2) ended cleanly at the largest file its file system allows (4 GiB on FAT32)"))
                }
            }
        }
    }

    @Test func aRecordingWhoseLastPartIsBeingWrittenShowsWhatIsWritten() async throws {
        let f = try WebFixture()
        try f.addRotatedRide(lastEndedCleanly: false, lastEnd: "recording")
        let live = FakeLive()
        live.state.withLock { $0 = ("recording", f.folder + "/\(names[2]).csv", []) }
        try await f.app(live: live).test(.router) { client in
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let card = try #require(cards(html).first)
            #expect(cards(html).count == 1)
            #expect(card.contains("recording now") && card.contains("data-writing") && !card.contains(">unfinished<"))
            let page = String(buffer: try await client.execute(uri: "/recordings/\(names[0])", method: .get).body)
            #expect(page.contains("recording now") && page.contains("Still being written"))
            #expect(page.contains("The timeline is computed when the recording has ended."))
            #expect(page.contains("class=\"move\""))                    // the track so far
            #expect(!page.contains("id=\"delete\""))
            #expect(!f.exists("\(names[0]).summary.json"))
        }
    }

    @Test func partsGoInPartOrderWhateverTheirNamesAndFilesWithoutMetadataStandAlone() throws {
        // A first part closed before GPS time was known keeps its provisional name, which
        // sorts after the dated ones (docs/GPS.md).
        let f = try WebFixture()
        let start = WebFixture.rotatedStart
        try f.addRecording("unsynced-0001", start: start, seconds: 30, endReason: "rotated", rotated: ("r1", 1, nil, 0))
        try f.addRecording("20260101080030", start: start + 30, seconds: 30, rotated: ("r1", 2, "unsynced-0001", 30))
        try f.addRecording("20260101090000", start: start + 3600, seconds: 30)
        try "A,W,1.0,0,0,1\n".write(toFile: f.folder + "/loose.csv", atomically: false, encoding: .utf8)
        let recordings = try RecordingFolder(path: f.folder).recordings()
        // Without metadata there is no start time: the file's modification time (now) places it.
        #expect(recordings.map { $0.parts.map(\.name) } == [["loose"], ["20260101090000"], ["unsynced-0001", "20260101080030"]])
        let ride = recordings[2]
        #expect(ride.name == "unsynced-0001" && ride.partsText == "2 files" && ride.health == ["clean"])
        #expect(abs((ride.durationSeconds ?? 0) - 59.8) < 1e-6)
        #expect(recordings[0].health == ["no metadata"] && recordings[0].partsText == nil)
    }

    @Test func rotatedRecordingsGetOneSummaryInTheBackground() async throws {
        let f = try WebFixture()
        try f.addRotatedRide()
        let (rounds, roundDone) = AsyncStream<Int>.makeStream()
        try await f.app(summaryRounds: { roundDone.yield($0) }).test(.router) { client in
            _ = try await client.execute(uri: "/", method: .get)
            var it = rounds.makeAsyncIterator()
            #expect(await it.next() == 1)       // one recording, not three files
            #expect(f.exists("\(names[0]).summary.json") && !f.exists("\(names[1]).summary.json"))
            let html = String(buffer: try await client.execute(uri: "/", method: .get).body)
            let card = try #require(cards(html).first)
            // 22 minutes of riding at 0.0001°/s north (11.1 m/s): about 14.7 km.
            let whole = try SummaryJSON.decode(Array(try Data(contentsOf: URL(fileURLWithPath: f.folder + "/\(names[0]).summary.json"))))
            #expect(whole.files.count == 3 && whole.distanceM > 14_000)
            #expect(card.contains("<span>\(MotionWeb.Text.distance(whole.distanceM) ?? "?")</span>"))
        }
    }

    /// The counters in each part's metadata are running totals of the recording: the
    /// page says the latest part's, not their sum (10 + 10 + 25 would invent 45 drops).
    @Test func thePartsCountersAreRunningTotalsNotAddedUp() async throws {
        let f = try WebFixture()
        let totals: [Int64] = [10, 10, 25]
        for part in 1...3 {
            try f.addRecording(names[part - 1], start: WebFixture.rotatedStart + Double(part - 1) * 600, seconds: 60,
                               endedCleanly: part < 3, endReason: part < 3 ? "rotated" : "recording", droppedRows: totals[part - 1],
                               rotated: ("ride-uuid", part, part > 1 ? names[part - 2] : nil, Double(part - 1) * 600))
        }
        let live = FakeLive()   // the last part is being written: no summary, so the counters speak
        live.state.withLock { $0 = ("recording", f.folder + "/\(names[2]).csv", []) }
        try await f.app(live: live).test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/\(names[0])", method: .get).body)
            #expect(page.contains("25 rows dropped"))
            #expect(!page.contains("45 rows dropped"))
        }
    }

    /// Part numbers and counters come from metadata files, which can be damaged or edited:
    /// part 0, a negative part, the largest Int and counters at Int64.max once trapped the
    /// server (a range 1..<0, an addition overflowing).
    @Test func impossiblePartNumbersAndCountersDoNotTrapTheServer() async throws {
        let f = try WebFixture()
        for (k, part) in [0, -3, Int.max].enumerated() {
            try f.addRecording(names[k], start: WebFixture.rotatedStart + Double(k) * 600, seconds: 20, endReason: "rotated",
                               droppedRows: .max, rotated: ("ride-uuid", part, k > 0 ? names[k - 1] : nil, Double(k) * 600))
        }
        try await f.app().test(.router) { client in
            let list = try await client.execute(uri: "/", method: .get)
            #expect(list.status == .ok)
            // Metadata no recorder writes is read as damaged: three files, each said to be so.
            let listed = cards(String(buffer: list.body))
            #expect(listed.count == 3 && listed.allSatisfy { $0.contains("unreadable metadata") }, "\(listed)")
            let page = try await client.execute(uri: "/recordings/\(names[0])", method: .get)
            #expect(page.status == .ok || page.status == .seeOther)
            let summary = try await client.execute(uri: "/api/recordings/\(names[0])/summary", method: .get)
            #expect(summary.status == .ok)
        }
    }
}
