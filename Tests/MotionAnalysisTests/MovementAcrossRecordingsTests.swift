import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Movement from `D` rows integrates |user acceleration| over each row's period, and a
/// recording's period is its own: read after a 100 Hz recording, a 10 Hz one's rows each
/// counted 0.01 s, and its movement came out a tenth of what it was.
@Suite struct MovementAcrossRecordingsTests {
    let t0 = 1_763_700_000.0   // a multiple of 600 s: intervals start with the recordings

    @Test func eachRecordingsRowsCountTheirOwnPeriod() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (k, rate) in [100, 10].enumerated() {
            let start = t0 + Double(k) * 600
            let path = dir + "/2025112104\(4 + k)000.csv"
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<(60 * rate) {   // 60 s with |user acceleration| 0.1 g
                csv += "D,W,\(start + Double(i) / Double(rate)),0,0,0,0.1,0,0,0,0,0\n"
            }
            try csv.write(toFile: path, atomically: false, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "id-\(k)", start: start, rateHz: rate, sources: "D",
                                                rows: ["D": 60 * rate])
            paths.append(path)
        }
        let s = try RecordingAnalyzer.summarize(paths)
        #expect(s.movement.source == "D" && s.movement.sums.count == 2, "\(s.movement)")
        // 0.1 g for 60 s, less the first row's period (it has no step before it).
        #expect(abs(s.movement.sums[0] - 0.1 * 59.99) < 0.01, "\(s.movement.sums)")
        #expect(abs(s.movement.sums[1] - 0.1 * 59.9) < 0.01, "\(s.movement.sums)")
    }
}
