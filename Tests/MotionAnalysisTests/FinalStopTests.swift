import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// Staying put at the end of a recording is a stop (trackintel's `include_last=True`),
/// not the tail of the last move.
@Suite struct FinalStopTests {
    let t0 = 1_763_700_000.0

    /// Ride 10 min east at 5 m/s, then `waitSeconds` with fixes scattered ±8 m around the
    /// arrival, as L rows (no gpsd speed).
    func rideThenWait(_ waitSeconds: Int, options: AnalysisOptions = .init()) throws -> AnalysisSummary {
        var random = SplitMix(state: 11)
        var text = CSVFormat.headerLine + "\n"
        func row(_ t: Int, north: Double, east: Double) {
            let lat = 48.1 + north / 111_195, lon = 11.5 + east / (111_195 * cos(48.1 * .pi / 180))
            text += "L,W,\(t0 + Double(t)),\(lat),\(lon),500.0,nan,nan,nan,5.0,nan,3\n"
        }
        for k in 0..<600 { row(k, north: 0, east: 5 * Double(k)) }
        for k in 600..<(600 + waitSeconds) {
            row(k, north: Double.random(in: -8...8, using: &random), east: 3000 + Double.random(in: -8...8, using: &random))
        }
        return try ScenarioRecording.summarize(text, options: options)
    }

    @Test func thirtyMinutesWaitingAtTheEndAreAStop() throws {
        let s = try rideThenWait(1800)
        let last = try #require(s.timeline.last)
        // The stay point starts at its anchor (the ride's anchors are 100 m apart: the one
        // 100 m before the arrival or the first fix of the wait that is 100 m from it) and
        // ends with the recording.
        #expect(last.type == .stop, "\(s.timeline)")
        #expect(last.start >= t0 + 580 && last.start <= t0 + 620 && last.end == t0 + 2399, "\(last)")
        #expect(abs((last.lon ?? 0) - (11.5 + 3000 / (111_195 * cos(48.1 * .pi / 180)))) < 2e-4, "\(last)")
        let moves = s.timeline.filter { $0.type == .move }
        #expect(moves.count == 1 && moves[0].activity == .cycling && moves[0].end == last.start, "\(s.timeline)")
        // The wait adds neither distance nor moving time: 3 km in 10 min.
        #expect(s.distanceM > 2850 && s.distanceM < 3010, "\(s.distanceM)")
        #expect(s.movingS < 620, "\(s.movingS)")
    }

    @Test func aWaitShorterThanAStopStaysInTheMove() throws {
        // 4 min: shorter than the 5 min of a stop (a red light, a queue), so no stop.
        let s = try rideThenWait(240)
        #expect(!s.timeline.contains { $0.type == .stop }, "\(s.timeline)")
        #expect(s.timeline.last?.type == .move && s.timeline.last?.end == t0 + 839, "\(s.timeline)")
    }

    @Test func withoutFinalStopTheWaitIsPartOfTheMoveAsInTrackintelsDefault() throws {
        var options = AnalysisOptions()
        options.finalStop = false
        let s = try rideThenWait(1800, options: options)
        #expect(!s.timeline.contains { $0.type == .stop }, "\(s.timeline)")
        #expect(s.timeline.last?.end == t0 + 2399, "\(s.timeline)")
    }
}
