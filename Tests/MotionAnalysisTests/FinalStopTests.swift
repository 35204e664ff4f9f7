import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// Staying put at the end of a recording is a stop (trackintel's `include_last=True`),
/// not the tail of the last move.
@Suite struct FinalStopTests {
    let t0 = 1_763_700_000.0

    /// An L row `north` and `east` metres from the start, `t` seconds in (no gpsd speed).
    func row(_ t: Int, north: Double, east: Double) -> String {
        let lat = 48.1 + north / 111_195, lon = 11.5 + east / (111_195 * cos(48.1 * .pi / 180))
        return "L,W,\(t0 + Double(t)),\(lat),\(lon),500.0,nan,nan,nan,5.0,nan,3\n"
    }

    /// Ride 10 min east at 5 m/s, then `waitSeconds` with fixes scattered ±8 m around the
    /// arrival: the header and the rows.
    func rideAndWait(_ waitSeconds: Int) -> String {
        var random = SplitMix(state: 11)
        var text = CSVFormat.headerLine + "\n"
        for k in 0..<600 { text += row(k, north: 0, east: 5 * Double(k)) }
        for k in 600..<(600 + waitSeconds) {
            text += row(k, north: Double.random(in: -8...8, using: &random), east: 3000 + Double.random(in: -8...8, using: &random))
        }
        return text
    }

    func rideThenWait(_ waitSeconds: Int, options: AnalysisOptions = .init()) throws -> AnalysisSummary {
        try ScenarioRecording.summarize(rideAndWait(waitSeconds), options: options)
    }

    /// The ride and 30 min wait, then a break (`loss` seconds without a fix, or 1 s and a
    /// jump 20 km north), then 10 min more of riding east from there.
    func waitThenBreak(loss: Int, jump: Bool, options: AnalysisOptions = .init()) throws -> AnalysisSummary {
        var text = rideAndWait(1800)
        let resume = 2399 + (jump ? 1 : loss)
        for k in 0..<600 { text += row(resume + k, north: jump ? 20_000 : 0, east: 3000 + 5 * Double(k)) }
        return try ScenarioRecording.summarize(text, options: options)
    }

    /// Sitting still and then losing GPS (indoors), or a jump, ends a stop as the end of the
    /// recording does: the 30 minutes were "walking, 1.5 km/h" of jitter before.
    @Test func staysBeforeALongLossOrAJumpAreStops() throws {
        for jump in [false, true] {
            let s = try waitThenBreak(loss: 2400, jump: jump)
            let stops = s.timeline.filter { $0.type == .stop }
            #expect(stops.count == 1 && stops[0].start >= t0 + 580 && stops[0].start <= t0 + 620 && stops[0].end == t0 + 2399,
                    "jump \(jump): \(s.timeline)")
            let moves = s.timeline.filter { $0.type == .move }
            #expect(moves.count == 2 && moves.allSatisfy { $0.activity == .cycling }, "jump \(jump): \(s.timeline)")
            // Two rides of 3 km; the wait adds nothing.
            #expect(s.distanceM > 5700 && s.distanceM < 6020, "jump \(jump): \(s.distanceM)")
            var trackintel = AnalysisOptions()
            trackintel.finalStop = false
            #expect(!(try waitThenBreak(loss: 2400, jump: jump, options: trackintel)).timeline.contains { $0.type == .stop })
        }
        // A loss shorter than trackintel's gap threshold (15 min) is no break: the stop goes
        // on across it, until the ride resumed there has gone 100 m (about 20 s).
        let short = try waitThenBreak(loss: 600, jump: false)
        let stops = short.timeline.filter { $0.type == .stop }
        #expect(stops.count == 1 && stops[0].end > t0 + 3010 && stops[0].end < t0 + 3030, "\(short.timeline)")
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
