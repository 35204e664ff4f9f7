import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Times from a clock nobody set (no time service, and GPS time never arrived) are said to
/// be so: the summary showed them as known times, with nothing to doubt.
@Suite struct UnsetClockTests {
    let t0 = 1_763_700_000.0

    /// One recording of two parts; `clocks` are their metadata's `recording.clock`.
    func summarize(_ clocks: [String]) throws -> AnalysisSummary {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (k, clock) in clocks.enumerated() {
            let start = t0 + Double(k) * 10
            let path = dir + "/2025112104400\(k).csv"
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<100 { csv += "A,W,\(start + Double(i) / 10),0.01,-0.02,1.0\n" }
            try csv.write(toFile: path, atomically: false, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "id", start: t0, rateHz: 10, sources: "A", rows: ["A": 100],
                                                index: k + 1, clock: clock)
            paths.append(path)
        }
        return try RecordingAnalyzer.summarize(paths)
    }

    func said(_ s: AnalysisSummary) -> Bool { s.messages.contains { $0.contains("logger's own clock") } }

    @Test func aClockNobodySetIsSaid() throws {
        let s = try summarize([GPSTimeRecord.unsynchronisedClock, GPSTimeRecord.unsynchronisedClock])
        let text = try #require(s.messages.first { $0.contains("logger's own clock") })
        #expect(text.hasPrefix("This recording's times") && text.contains("off by hours or days"), "\(text)")
    }

    /// GPS time set it by the last part (the first part's metadata still says what it was
    /// when that part closed), or a time service did: nothing to say.
    @Test func aClockThatGPSTimeSetIsNotDoubted() throws {
        #expect(!said(try summarize([GPSTimeRecord.unsynchronisedClock, "gps"])))
        #expect(!said(try summarize(["system"])))
    }
}
