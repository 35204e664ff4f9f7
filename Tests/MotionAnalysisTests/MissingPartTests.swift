import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// A rotated recording with a part missing (deleted from the web page, not copied): nothing
/// is known of its time. A car's part deleted was a five-minute "stop" where it drove
/// 7.7 km, and the straight line across the hole was in the distance.
@Suite("A missing part of a recording")
struct MissingPartTests {
    static let start = ScenarioRecording.startEpoch

    /// L rows (1 Hz) of a car going east at 25 m/s from `from` to `to` seconds, standing
    /// still at a junction from `stillFrom` on.
    static func rows(from: Int, to: Int, stillFrom: Int = .max) -> String {
        var text = CSVFormat.headerLine + "\n"
        for t in from..<to {
            let metres = 25.0 * Double(min(t, stillFrom))
            let lon = 13.4 + metres / (111_320 * cos(52.5 * Double.pi / 180))
            text += "L,W,\(start + Double(t)),52.5,\(lon),40,nan,nan,nan,4.0,nan,3\n"
        }
        return text
    }

    /// Parts 1 and 3 of three: part 1 drives, then waits 10 s at a junction; part 2 (300 s)
    /// is gone; part 3 drives on, 7.5 km further east.
    func summary(secondPartPresent: Bool) throws -> AnalysisSummary {
        let dir = try ScenarioRecording.tempDir()
        let parts = [(1, 0, 300), (2, 300, 600), (3, 600, 900)]
        var paths: [String] = []
        for (index, from, to) in parts where index != 2 || secondPartPresent {
            let path = dir + "/part\(index).csv"
            try Self.rows(from: from, to: to, stillFrom: index == 1 ? 290 : .max).write(toFile: path, atomically: true, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "ride", start: Self.start, rateHz: 1, sources: "L",
                                                rows: ["L": to - from], index: index,
                                                previous: index > 1 ? "part\(index - 1).csv" : nil)
            paths.append(path)
        }
        return try RecordingAnalyzer.summarize(paths)
    }

    @Test func itsTimeIsAGapNotAStopAndItsWayIsNotInTheDistance() throws {
        let s = try summary(secondPartPresent: false)
        #expect(!s.timeline.contains { $0.type == .stop }, "\(s.timeline)")
        let gap = try #require(s.timeline.first { $0.type == .gap }, "\(s.timeline)")
        #expect(gap.start == Self.start + 299 && gap.end == Self.start + 600)
        #expect(s.timeline.filter { $0.type == .move }.allSatisfy { $0.activity == .vehicle }, "\(s.timeline)")
        // 290 s and 300 s of driving at 25 m/s, not the 7.7 km straight line between them.
        #expect(abs(s.distanceM - 25 * (289 + 299)) < 100, "\(s.distanceM)")
        #expect(s.health.findings.contains { $0.contains("part 2 is missing between part1.csv and part3.csv") }, "\(s.health.findings)")
        // The sensors are not blamed for a deleted file.
        #expect(!s.health.findings.contains { $0.contains("GPS had no fix") || $0.contains("Hz of the configured") }, "\(s.health.findings)")
    }

    /// The accelerometer alone (no fixes): still before and after a missing part were one
    /// stop across it.
    @Test func theAccelerometersStopsDoNotSpanAMissingPart() throws {
        let dir = try ScenarioRecording.tempDir()
        var paths: [String] = []
        for index in [1, 3] {
            let from = Double(index - 1) * 360
            var text = CSVFormat.headerLine + "\n"
            for k in 0..<3600 { text += "A,W,\(Self.start + from + Double(k) / 10),0.0,0.0,1.0\n" }
            let path = dir + "/still\(index).csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "night", start: Self.start, rateHz: 10, sources: "A",
                                                rows: ["A": 3600], index: index, previous: index > 1 ? "still\(index - 1).csv" : nil)
            paths.append(path)
        }
        let s = try RecordingAnalyzer.summarize(paths)
        let stops = s.timeline.filter { $0.type == .stop }
        #expect(stops.count == 2 && stops.allSatisfy { $0.end <= Self.start + 360 || $0.start >= Self.start + 720 }, "\(s.timeline)")
        #expect(s.timeline.contains { $0.type == .gap }, "\(s.timeline)")
    }

    /// A missing part shorter than an IMU window (5 s): the window it begins in ends at it.
    /// The stop before it reached across it, and the gap read "0.0 s" after it.
    @Test func aMissingPartInsideOneWindowIsAGapOfItsLength() throws {
        let dir = try ScenarioRecording.tempDir()
        var paths: [String] = []
        // Part 1: 0–360.1 s; part 2 (360.2–362.4 s) is gone; part 3: 362.5–722.5 s.
        for (index, from, count) in [(1, 0.0, 3602), (3, 362.5, 3600)] {
            var text = CSVFormat.headerLine + "\n"
            for k in 0..<count { text += "A,W,\(Self.start + from + Double(k) / 10),0.0,0.0,1.0\n" }
            let path = dir + "/still\(index).csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "night", start: Self.start, rateHz: 10, sources: "A",
                                                rows: ["A": count], index: index, previous: index > 1 ? "still\(index - 1).csv" : nil)
            paths.append(path)
        }
        let s = try RecordingAnalyzer.summarize(paths)
        let gap = try #require(s.timeline.first { $0.type == .gap }, "\(s.timeline)")
        #expect(gap.start <= Self.start + 360.2 && gap.end >= Self.start + 362.5, "\(s.timeline)")
        #expect(s.timeline.allSatisfy { $0.type == .gap || $0.end <= gap.start || $0.start >= gap.end }, "\(s.timeline)")
    }

    @Test func withEveryPartThereIsNoGapAndNoFinding() throws {
        let s = try summary(secondPartPresent: true)
        #expect(!s.timeline.contains { $0.type == .gap }, "\(s.timeline)")
        #expect(!s.health.findings.contains { $0.contains("missing between") }, "\(s.health.findings)")
    }
}
