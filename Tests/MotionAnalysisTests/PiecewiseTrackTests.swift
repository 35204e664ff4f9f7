import Foundation
@testable import MotionAnalysis
import MotionCore
import MotionSimulator
import MotionTestSupport
import Testing

/// The track and timeline are computed a piece at a time (cut at stops and at long losses
/// of fixes) so that a long recording's fixes are not all held; the summary must be the
/// same, bit for bit, as with the whole track as one piece.
@Suite struct PiecewiseTrackTests {
    let t0 = 1_763_700_000.0

    /// The summary of `paths` with the track cut into pieces and as one piece, and the
    /// number of pieces of the first.
    func both(_ paths: [String], options: AnalysisOptions = .init()) throws -> (AnalysisSummary, AnalysisSummary, Int) {
        var whole = options
        whole.piecewise = false
        let cut = try RecordingAnalyzer.analyze(paths, options: options, keepFixes: false)
        let one = try RecordingAnalyzer.analyze(paths, options: whole, keepFixes: false)
        #expect(one.trackPieces == 1)
        return (cut.summary, one.summary, cut.trackPieces)
    }

    func json(_ s: AnalysisSummary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(s), as: UTF8.self)
    }

    /// Days of a person's GPS: stays with jitter, walks, rides and drives at fixes 1–60 s
    /// apart, losses of signal (short, bridged at vehicle speed, and longer than the gap
    /// limit), a jump to another town, a spike, and nights without a recording.
    func days(_ count: Int, seed: UInt64) -> String {
        var random = SplitMix(state: seed)
        var text = CSVFormat.headerLine + "\n"
        var t = t0, north = 0.0, east = 0.0
        func row() {
            let lat = 48.1 + north / 111_195, lon = 11.5 + east / (111_195 * cos(48.1 * .pi / 180))
            let alt = 500 + north / 50 + Double.random(in: -3...3, using: &random)
            text += "L,W,\(t),\(lat),\(lon),\(alt),nan,nan,nan,\(Double.random(in: 3...12, using: &random)),nan,3\n"
        }
        for _ in 0..<count {
            for _ in 0..<Int.random(in: 4...9, using: &random) {
                // A stay: 2–40 minutes within ±25 m.
                let intervals: [Double] = [1, 5, 15, 60]
                let interval = intervals.randomElement(using: &random) ?? 1
                let stay = Double.random(in: 120...2400, using: &random)
                let (n0, e0) = (north, east)
                var s = 0.0
                while s < stay {
                    north = n0 + Double.random(in: -25...25, using: &random); east = e0 + Double.random(in: -25...25, using: &random)
                    row(); t += interval; s += interval
                }
                north = n0; east = e0
                // A move: walking, cycling or driving, with a red light, sometimes a loss.
                let speeds: [Double] = [1.3, 1.8, 4.5, 6, 12, 25]
                let speed = speeds.randomElement(using: &random) ?? 1.3
                let heading = Double.random(in: 0..<(2 * .pi), using: &random)
                let moveIntervals: [Double] = [1, 2, 5, 10, 30]
                let moveInterval = moveIntervals.randomElement(using: &random) ?? 1
                let duration = Double.random(in: 60...2400, using: &random)
                var m = 0.0
                while m < duration {
                    let v: Double = m > 200 && m < 240 ? 0 : speed
                    north += cos(heading) * v * moveInterval; east += sin(heading) * v * moveInterval
                    row(); t += moveInterval; m += moveInterval
                    if Int.random(in: 0..<400, using: &random) == 0 {
                        // Signal lost: 3–20 minutes, still travelling.
                        let lost = Double.random(in: 180...1200, using: &random)
                        north += cos(heading) * speed * lost; east += sin(heading) * speed * lost
                        t += lost
                    }
                    if Int.random(in: 0..<3000, using: &random) == 0 {
                        // A multipath spike: one fix 400 m off.
                        north += 400; row(); north -= 400; t += moveInterval
                    }
                }
            }
            if Int.random(in: 0..<3, using: &random) == 0 { east += 80_000 }   // the next day in another town
            t += Double.random(in: 6 * 3600...12 * 3600, using: &random)   // the night
        }
        return text
    }

    @Test func daysOfGPSGiveTheSameSummaryInPieces() throws {
        let dir = ScratchFolder.make("piecewise")
        for seed in [1, 2, 3] as [UInt64] {
            let path = dir + "/days\(seed).csv"
            try days(5, seed: seed).write(toFile: path, atomically: true, encoding: .utf8)
            let (cut, one, pieces) = try both([path])
            #expect(pieces > 20, "\(pieces) pieces")
            #expect(one.timeline.count > 30 && one.distanceM > 10_000, "\(one.timeline.count) entries, \(one.distanceM) m")
            #expect(try json(cut) == json(one))
        }
    }

    @Test func sparseFixesAndTheOptionsMoveTheCutsAndStillAgree() throws {
        let dir = ScratchFolder.make("piecewise")
        let path = dir + "/days.csv"
        try days(3, seed: 9).write(toFile: path, atomically: true, encoding: .utf8)
        var options = AnalysisOptions()
        options.stopMinSeconds = 120; options.gapSeconds = 200; options.stopMaxGapSeconds = 1500; options.finalStop = false
        let (cut, one, pieces) = try both([path], options: options)
        #expect(pieces > 10, "\(pieces) pieces")
        #expect(try json(cut) == json(one))
    }

    /// A commute with the accelerometer at 50 Hz, twice round, GPS lost for 12 minutes at a
    /// stop (the IMU's own timeline fills the loss: stops tolerate at most 500 s without
    /// fixes here), in two files.
    @Test func aCommuteWithTheIMUAndALossGivesTheSameSummaryInPieces() throws {
        let dir = ScratchFolder.make("piecewise")
        let path = dir + "/commute.csv"
        let seconds = 2 * 2592.0
        try ScenarioRecording.write(.commute, seconds: seconds, rate: 50, to: path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let lossFrom = t0 + 2000, lossTo = t0 + 2720
        let kept = lines.filter { line in
            guard line.hasPrefix("L,"), let when = Double(line.split(separator: ",")[2]) else { return true }
            return when < lossFrom || when >= lossTo
        }
        let half = kept.count / 2
        try (kept[..<half].joined(separator: "\n") + "\n").write(toFile: dir + "/a.csv", atomically: true, encoding: .utf8)
        try (CSVFormat.headerLine + "\n" + kept[half...].joined(separator: "\n")).write(toFile: dir + "/b.csv", atomically: true, encoding: .utf8)
        var options = AnalysisOptions()
        options.stopMaxGapSeconds = 500
        let (cut, one, pieces) = try both([dir + "/a.csv", dir + "/b.csv"], options: options)
        #expect(pieces >= 4, "\(pieces) pieces")
        #expect(one.timeline.contains { $0.basis == .imu }, "\(one.timeline)")
        #expect(try json(cut) == json(one))
    }

    /// An accelerometer that stops after two minutes (unplugged) while the GPS goes on for
    /// days: its last window is completed once the fixes are a minute past it, so the
    /// pieces after it are analysed as they come rather than all held to the end.
    @Test func anAccelerometerThatStopsHoldsNoPieceBack() throws {
        let dir = ScratchFolder.make("piecewise")
        let gps = days(6, seed: 5).split(separator: "\n").dropFirst()
        var imu: [String] = []
        for k in 0..<6000 {
            let when = t0 + Double(k) / 50
            imu.append("A,W,\(when),\(0.01 * sin(when * 11)),\(0.01 * cos(when * 7)),-1.0")
        }
        // Merged in time order (the fixes of the first minutes come between the samples).
        var merged: [Substring] = []
        var a = imu[...].makeIterator(), next = a.next()
        for line in gps {
            let when = Double(line.split(separator: ",")[2]) ?? 0
            while let sample = next, Double(sample.split(separator: ",")[2]) ?? 0 <= when {
                merged.append(Substring(sample)); next = a.next()
            }
            merged.append(line)
        }
        let path = dir + "/imu-stops.csv"
        try (CSVFormat.headerLine + "\n" + merged.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let free = try RecordingAnalyzer.summarize([path])
        #expect(free.fixesUsed > 20_000 && free.rows["A"] == 6000, "\(free.fixesUsed) fixes, \(free.rows)")
        // Every piece fits in 6000 fixes; the whole track does not.
        let bounded = try RecordingAnalyzer.summarize([path], heldFixLimit: 6000)
        #expect(try json(bounded) == json(free))
        let (cut, one, pieces) = try both([path])
        #expect(pieces > 20, "\(pieces) pieces")
        #expect(try json(cut) == json(one))
    }

    /// A track that never stops (a day's ride, a passage at sea) is cut anyway every
    /// `longestPieceFixes` fixes, where no stay point can span the cut: no more is held,
    /// and the distance, moving time, speeds and moves are the whole track's (a move joined
    /// across a cut adds its rounded parts: within 0.1 m a cut).
    @Test func aTrackThatNeverStopsIsCutAnyway() throws {
        let dir = ScratchFolder.make("piecewise")
        var random = SplitMix(state: 21)
        var text = CSVFormat.headerLine + "\n"
        var east = 0.0
        for s in 0..<6000 {
            // A ride at 5 m/s with a 30 s red light every 10 minutes, GPS jitter of ±3 m, eph 18 m
            // (a step counts once it leaves 18 m: every fourth fix or so, not at every cut).
            east += s % 600 < 30 ? 0 : 5 + Double.random(in: -0.5...0.5, using: &random)
            let lat = 48.1 + Double.random(in: -3...3, using: &random) / 111_195
            let lon = 11.5 + (east + Double.random(in: -3...3, using: &random)) / (111_195 * cos(48.1 * .pi / 180))
            text += "L,W,\(t0 + Double(s)),\(lat),\(lon),500,nan,nan,nan,18,nan,3\n"
        }
        let path = dir + "/never-stops.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var options = AnalysisOptions()
        options.longestPieceFixes = 1000
        let (cut, one, pieces) = try both([path], options: options)
        #expect(pieces >= 6, "\(pieces) pieces")
        #expect(cut.distanceM == one.distanceM && cut.movingS == one.movingS && cut.maxSpeedMps == one.maxSpeedMps)
        #expect(one.distanceM > 25_000 && one.activitySeconds == ["cycling": 5999], "\(one.distanceM) m, \(one.activitySeconds)")
        #expect(cut.activitySeconds == one.activitySeconds)
        #expect(cut.timeline.count == one.timeline.count)
        for (a, b) in zip(cut.timeline, one.timeline) {
            #expect(a.type == b.type && a.start == b.start && a.end == b.end && a.activity == b.activity)
            #expect(abs((a.distanceM ?? 0) - (b.distanceM ?? 0)) <= 0.1 * Double(pieces) + 1e-9)
        }
        // Held: a piece and the minute around it, not the track.
        #expect(try RecordingAnalyzer.summarize([path], options: options, heldFixLimit: 1200).distanceM == one.distanceM)
        #expect(throws: AnalysisMemory.TooLong.self) {
            try RecordingAnalyzer.summarize([path], options: AnalysisOptions(), heldFixLimit: 1200)
        }
    }

    @Test func theExportsStillGetEveryFix() throws {
        let dir = ScratchFolder.make("piecewise")
        let path = dir + "/days.csv"
        let text = days(2, seed: 4)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let all = try RecordingAnalyzer.analyze([path])
        let none = try RecordingAnalyzer.analyze([path], keepFixes: false)
        #expect(none.fixes.isEmpty && all.trackPieces > 5)
        #expect(all.fixes.count == all.summary.fixesUsed && all.fixes.count > 1000)
        #expect(zip(all.fixes, all.fixes.dropFirst()).allSatisfy { $0.time < $1.time })
    }
}
