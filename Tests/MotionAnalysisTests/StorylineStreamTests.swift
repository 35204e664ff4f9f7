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
        let t0 = 1_763_700_000.0
        var text = CSVFormat.headerLine + "\n"
        var lat = 48.1
        for k in 0..<(days * 8640) {
            let t = t0 + 10 * Double(k)
            // An hour of walking in every three; the rest stays put.
            if (k / 360) % 3 == 0 { lat += 14 / 111_200 }
            text += "L,W,\(t),\(lat),11.5,500.0,nan,nan,nan,5.0,nan,3\n"
        }
        let path = try ScenarioRecording.tempDir() + "/days.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try RecordingAnalyzer.analyze([path])
    }

    @Test(arguments: [1, 3])
    func theStreamedStorylineIsTheWholeEncoding(days: Int) throws {
        let r = try result(days: days)
        let (order, day) = TimelineExport.storylineDays(r)
        #expect(order.count >= days, "\(order)")
        let whole = Array(try TimelineExport.storylineEncoder.encode(order.map(day))) + [0x0A]
        var pieces = 0
        var streamed: [UInt8] = []
        try TimelineExport.storyline(r) { streamed += $0; pieces += 1 }
        #expect(streamed == whole, "\(String(decoding: streamed.prefix(300), as: UTF8.self))")
        #expect(pieces == order.count + 1)
        let parsed = try JSONSerialization.jsonObject(with: Data(streamed)) as? [[String: Any]]
        #expect(parsed?.count == order.count)
    }

    @Test func anEmptyStorylineIsAnEmptyArray() throws {
        var out: [UInt8] = []
        let empty = AnalysisResult(summary: AnalysisSummary(analysisVersion: RecordingAnalyzer.version, files: []), fixes: [])
        try TimelineExport.storyline(empty) { out += $0 }
        #expect(try JSONSerialization.jsonObject(with: Data(out)) as? [Any] != nil, "\(String(decoding: out, as: UTF8.self))")
    }
}
