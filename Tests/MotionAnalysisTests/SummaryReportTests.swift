import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// The human report: what it lists and how it words it.
@Suite struct SummaryReportTests {
    /// `intervals` ten-minute intervals of D rows (one every 10 s, user acceleration 0.01 g).
    func movementReport(intervals: Int) throws -> [Substring] {
        let t0 = 1_763_700_000.0
        var text = CSVFormat.headerLine + "\n"
        for k in 0..<(intervals * 60) {
            text += "D,W,\(t0 + 10 * Double(k)),0.0,0.0,0.0,0.01,0.0,0.0,0.0,0.0,0.0\n"
        }
        let s = try ScenarioRecording.summarize(text)
        #expect(s.movement.sums.count == intervals)
        return SummaryReport.text(s, title: "movement").split(separator: "\n")
    }

    @Test func aNightsMovementIsListedWhole() throws {
        // 9 h of 10-minute intervals: the report cut at 48 (8 h), mid-night.
        let night = try movementReport(intervals: 54)
        #expect(!night.contains { $0.contains("more interval") }, "\(night)")
        // Past a day (144 intervals) the rest is counted, in the right number.
        let long = try movementReport(intervals: 145)
        #expect(long.contains("  … 1 more interval (see --json)"), "\(long.suffix(12))")
        let longer = try movementReport(intervals: 150)
        #expect(longer.contains("  … 6 more intervals (see --json)"), "\(longer.suffix(12))")
    }

    /// Time per activity is added up exactly and rounded once: rounded per entry, ten
    /// walking moves of 10.4 s made 100 s.
    @Test func timePerActivityIsRoundedOnce() {
        var timeline: [TimelineEntry] = []
        var t = 1_763_700_000.0
        for _ in 0..<10 {
            var e = TimelineEntry(type: .move, start: t, end: t + 10.4)
            e.activity = .walking
            timeline.append(e)
            timeline.append(TimelineEntry(type: .stop, start: t + 10.4, end: t + 310.2))
            t += 310.2
        }
        timeline.append(TimelineEntry(type: .gap, start: t, end: t + 3600))
        let seconds = RecordingAnalyzer.activitySeconds(timeline)
        #expect(seconds == ["walking": 104, "stop": 2998], "\(seconds)")
    }
}
