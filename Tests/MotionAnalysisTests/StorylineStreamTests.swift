import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// `export --format timeline` is written a day at a time (one day's track points held, not
/// all of them: 14 days at 1 Hz took 1 GB built whole), and its bytes are exactly those of
/// the whole array encoded at once.
@Suite struct StorylineStreamTests {
    /// Walks and stays over `days` days (a fix every 10 s), in the machine's local days.
    func result(days: Int) throws -> AnalysisResult {
        try RecordingAnalyzer.analyze([try recording(days: days)])
    }

    /// `restDay`: the second and third 24 hours are spent in one place (a local day without a move).
    func recording(days: Int, restDay: Bool = false) throws -> String {
        let t0 = 1_763_700_000.0
        var text = CSVFormat.headerLine + "\n"
        var lat = 48.1
        for k in 0..<(days * 8640) {
            let t = t0 + 10 * Double(k)
            // An hour of walking in every three; the rest stays put.
            if (k / 360) % 3 == 0 && !(restDay && (1...2).contains(k / 8640)) { lat += 14 / 111_200 }
            text += "L,W,\(t),\(lat),11.5,500.0,nan,nan,nan,5.0,nan,3\n"
        }
        let path = try ScenarioRecording.tempDir() + "/days.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What `export --format timeline` does: the summary without the fixes, then the
    /// recording read again, its fixes handed to the writer as they go past.
    @Test(arguments: [false, true])
    func aSecondReadingForTheFixesGivesTheSameBytes(restDay: Bool) throws {
        let path = try recording(days: 4, restDay: restDay)
        let r = try RecordingAnalyzer.analyze([path])
        let (order, entries) = TimelineExport.storylineDays(r.summary)
        #expect(!restDay || order.contains { entries[$0]?.allSatisfy { $0.type == .stop } == true }, "a day without a move")
        let whole = Array(try TimelineExport.storylineEncoder.encode(order.map {
            TimelineExport.day($0, entries[$0] ?? [], fixes: r.fixes, lastUpdate: r.summary.end ?? 0)
        })) + [0x0A]
        #expect(try TimelineExport.storyline(r) == whole)
        let summary = try RecordingAnalyzer.analyze([path], keepFixes: false)
        #expect(summary.fixes.isEmpty)
        var out: [UInt8] = []
        let writer = StorylineWriter(summary.summary) { out += $0 }
        var handed = 0
        try RecordingAnalyzer.forEachFix([path]) { fix in handed += 1; writer.add(fix) }
        try writer.finish()
        #expect(handed == summary.summary.fixesUsed && handed > 20_000)
        #expect(out == whole && whole.count > 100_000, "\(out.count) of \(whole.count) bytes")
    }

    /// `export --format timeline-geojson` likewise: a feature at a time from a second
    /// reading, the bytes of the whole FeatureCollection encoded at once.
    @Test(arguments: [false, true])
    func theTimelineGeoJSONFromASecondReadingIsTheWholeEncoding(restDay: Bool) throws {
        let path = try recording(days: 3, restDay: restDay)
        let r = try RecordingAnalyzer.analyze([path])
        let whole = Array(try TimelineExport.geoJSONEncoder.encode(TimelineExport.FeatureCollection(
            features: r.summary.timeline.map { TimelineExport.feature($0, fixes: r.fixes) }))) + [0x0A]
        #expect(try TimelineExport.geoJSON(r) == whole)
        var out: [UInt8] = []
        try TimelineGeoJSONWriter(r.summary) { out += $0 }.write(fixesOf: [path])
        #expect(out == whole && whole.count > 50_000, "\(out.count) of \(whole.count) bytes")
        let lines = r.summary.timeline.filter { $0.type == .move }.count
        #expect(String(decoding: out, as: UTF8.self).components(separatedBy: "\"LineString\"").count - 1 == lines)
    }

    /// A walk, a ride of 9000 fixes at 1 Hz across local midnight (a fix at midnight ends
    /// the first day's piece of it and starts the second's) and a walk, without a stop: the
    /// moves touch (the fix that ends one starts the next), and the ride has more fixes
    /// than a batch of points (written a batch at a time, not held).
    func walkRideWalk() throws -> (path: String, result: AnalysisResult) {
        let midnight = try #require(LocalDay.bounds(LocalDay.date(1_763_700_000))).end
        let t0 = midnight - 3000
        var text = CSVFormat.headerLine + "\n"
        var east = 0.0
        for k in 0..<10_200 {
            east += k < 600 || k >= 9600 ? 1.4 : 5.5
            let lon = 11.5 + east / (111_195 * cos(48.1 * .pi / 180))
            text += "L,W,\(t0 + Double(k)),48.1,\(lon),500.0,nan,nan,nan,5.0,nan,3\n"
        }
        let path = try ScenarioRecording.tempDir() + "/ride.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try RecordingAnalyzer.analyze([path])
        let moves = r.summary.timeline.filter { $0.type == .move }
        #expect(moves.map(\.activity) == [.walking, .cycling, .walking], "\(r.summary.timeline)")
        #expect(zip(moves, moves.dropFirst()).allSatisfy { $0.end == $1.start })
        return (path, r)
    }

    @Test func aLongLineIsWrittenInBatchesWithTheSameBytes() throws {
        let (path, r) = try walkRideWalk()
        let whole = Array(try TimelineExport.geoJSONEncoder.encode(TimelineExport.FeatureCollection(
            features: r.summary.timeline.map { TimelineExport.feature($0, fixes: r.fixes) }))) + [0x0A]
        var out: [UInt8] = []
        try TimelineGeoJSONWriter(r.summary) { out += $0 }.write(fixesOf: [path])
        #expect(out == whole && whole.count > 200_000, "\(out.count) of \(whole.count) bytes")
    }

    @Test func aLongMoveAcrossMidnightIsWrittenInBatchesWithTheSameBytes() throws {
        let (path, r) = try walkRideWalk()
        let (order, entries) = TimelineExport.storylineDays(r.summary)
        #expect(order.count == 2 && entries.values.allSatisfy { $0.contains { $0.activity == .cycling } }, "\(entries)")
        let whole = Array(try TimelineExport.storylineEncoder.encode(order.map {
            TimelineExport.day($0, entries[$0] ?? [], fixes: r.fixes, lastUpdate: r.summary.end ?? 0)
        })) + [0x0A]
        var out: [UInt8] = []
        try StorylineWriter(r.summary) { out += $0 }.write(fixesOf: [path])
        #expect(out == whole && whole.count > 1_000_000, "\(out.count) of \(whole.count) bytes")
    }

    /// A sink that fails: the writer stops and `finish` throws its error.
    @Test func aFailingSinkIsReported() throws {
        struct Full: Error {}
        let r = try result(days: 2)
        let writer = StorylineWriter(r.summary) { _ in throw Full() }
        for fix in r.fixes { writer.add(fix) }
        #expect(throws: Full.self) { try writer.finish() }
        let features = TimelineGeoJSONWriter(r.summary) { _ in throw Full() }
        for fix in r.fixes { features.add(fix) }
        #expect(throws: Full.self) { try features.finish() }
    }

    @Test(arguments: [1, 3])
    func theStreamedStorylineIsTheWholeEncoding(days: Int) throws {
        let r = try result(days: days)
        let (order, entries) = TimelineExport.storylineDays(r.summary)
        #expect(order.count >= days, "\(order)")
        let whole = Array(try TimelineExport.storylineEncoder.encode(order.map {
            TimelineExport.day($0, entries[$0] ?? [], fixes: r.fixes, lastUpdate: r.summary.end ?? 0)
        })) + [0x0A]
        var pieces = 0, largest = 0
        var streamed: [UInt8] = []
        try TimelineExport.storyline(r) { streamed += $0; pieces += 1; largest = max(largest, $0.count) }
        #expect(streamed == whole, "\(String(decoding: streamed.prefix(300), as: UTF8.self))")
        // Handed on in pieces of about 64 KiB, not a day at a time.
        #expect(pieces > 2 * order.count && largest < 1 << 17, "\(pieces) pieces, the largest \(largest) bytes")
        let parsed = try JSONSerialization.jsonObject(with: Data(streamed)) as? [[String: Any]]
        #expect(parsed?.count == order.count)
    }

    /// Whole local days inside a gap are not written: a ride whose last row was damaged to
    /// the year 9999 made 2.9 million "off" days (714 MB in 64 s, 676 MB held; found by
    /// `make fuzz`). The days the gap begins and ends in keep their `off` segment.
    @Test func wholeDaysInsideAGapAreLeftOut() throws {
        let t0 = 1_763_700_000.0
        var text = CSVFormat.headerLine + "\n"
        for k in 0..<600 { text += "L,W,\(t0 + Double(k)),\(48.1 + Double(k) * 4.5e-5),11.5,500.0,nan,nan,nan,5.0,nan,3\n" }
        for (days, expected) in [(4.0, 2), (1e5, 2), (0.0, 1)] {
            // A fix `days` later than the ride's last (10 minutes later with 0).
            let late = t0 + 1200 + days * 86400
            let path = try ScenarioRecording.tempDir() + "/gap.csv"
            try (text + "L,W,\(late),48.2,11.5,500.0,nan,nan,nan,5.0,nan,3\n").write(toFile: path, atomically: true, encoding: .utf8)
            let r = try RecordingAnalyzer.analyze([path])
            let (order, entries) = TimelineExport.storylineDays(r.summary)
            #expect(order.count == expected, "\(days) days later: \(order)")
            #expect(order.first == LocalDay.date(t0) && order.last == LocalDay.date(late))
            if days > 1 {
                #expect(entries[order[0]]?.last?.type == .gap && entries[order[1]]?.first?.type == .gap)
                #expect(entries[order[1]]?.first?.start == LocalDay.bounds(LocalDay.date(late))?.start)
            }
        }
    }

    @Test func anEmptyStorylineIsAnEmptyArray() throws {
        var out: [UInt8] = []
        let empty = AnalysisResult(summary: AnalysisSummary(analysisVersion: RecordingAnalyzer.version, files: []), fixes: [])
        try TimelineExport.storyline(empty) { out += $0 }
        #expect(try JSONSerialization.jsonObject(with: Data(out)) as? [Any] != nil, "\(String(decoding: out, as: UTF8.self))")
    }
}
