import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Movement from `A` (no `D` rows) integrates |user acceleration| over time, whatever the
/// rate: a sleep tracker recording at 1–4 Hz is as entitled to its movement as one at
/// 50 Hz. Each sample below 5 Hz counted as one 20 ms bin, so the rocking below came out
/// at 2.2 g·s at 1 Hz, 4.4 at 2 Hz and 9.0 at 4 Hz, against 59.7 at 50 Hz.
@Suite struct MovementFromSlowAccelerometerTests {
    let t0 = 1_763_700_000.0   // a multiple of 600 s: each recording is one interval

    /// The same slow rocking (0.3 g at 0.2 Hz on x, gravity on z) for 10 minutes, sampled
    /// at `rate`, one recording per interval.
    func movement(rates: [Int]) throws -> [Double] {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (k, rate) in rates.enumerated() {
            let start = t0 + Double(k) * 600
            let path = dir + "/2025112104\(k)000.csv"
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<(600 * rate - 1) {
                let t = Double(i) / Double(rate)
                csv += "A,W,\(start + t),\(0.3 * sin(2 * Double.pi * 0.2 * t)),0,1\n"
            }
            try csv.write(toFile: path, atomically: false, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "id-\(k)", start: start, rateHz: rate, sources: "A",
                                                rows: ["A": 600 * rate - 1])
            paths.append(path)
        }
        let s = try RecordingAnalyzer.summarize(paths)
        #expect(s.movement.source == "A" && s.movement.sums.count == rates.count, "\(s.movement)")
        return s.movement.sums
    }

    @Test func slowRatesGiveTheMovementOfAFastOne() throws {
        let sums = try movement(rates: [50, 4, 2, 1])
        // 0.3 g at 0.2 Hz through the 0.5 s gravity low-pass leaves 0.16 g of amplitude,
        // 0.10 g on average: about 61 g·s in 10 minutes.
        #expect(abs(sums[0] - 61) < 3, "\(sums)")
        // Held between samples, slower rates see a staircase of the same motion: its
        // integral is within a tenth of the fast one's (it was 0.15, 0.07 and 0.04 of it).
        for (rate, sum) in zip([4, 2, 1], sums.dropFirst()) {
            #expect(abs(sum / sums[0] - 1) < 0.1, "\(rate) Hz: \(sum) g·s against \(sums[0]) at 50 Hz")
        }
    }

    /// A still device gives no movement at any rate: holding a sample is no motion.
    @Test func stillIsStillAtEveryRate() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/20251121040000.csv"
        var csv = CSVFormat.headerLine + "\n"
        for i in 0..<1200 { csv += "A,W,\(t0 + Double(i)),0.02,-0.01,0.99\n" }   // 1 Hz, 20 minutes
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        let s = try RecordingAnalyzer.summarize([path])
        #expect(s.movement.sums.count == 2 && s.movement.sums.allSatisfy { $0 == 0 }, "\(s.movement)")
    }
}
