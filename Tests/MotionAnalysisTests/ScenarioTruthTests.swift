import Foundation
import MotionAnalysis
import MotionSimulator
import Testing

/// The analysis against the simulator scenarios' own truth: at least 95 % of the seconds
/// classified right, every stop found, no stop where the truth has none (red lights,
/// queues, a jam).
@Suite struct ScenarioTruthTests {
    func check(_ scenario: SimulatorScenario, imu: Bool, rate: Int = 25) throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/scenario.csv"
        let seconds = scenario == .night ? 3600 : scenario.duration
        try ScenarioRecording.write(scenario, seconds: seconds, rate: rate, imu: imu, to: path)
        let summary = try RecordingAnalyzer.summarize([path])
        let (share, wrong) = ScenarioRecording.agreement(summary, scenario, seconds: seconds)
        #expect(share >= 0.95, "\(scenario) imu \(imu): \(Int(share * 1000)) ‰ of seconds right; wrong: \(wrong)")
        // The timeline lies within the rows: the accelerometer's 5 s windows made a night
        // recorded from hh:mm:01 "still" from hh:mm:00.
        let first = try #require(summary.start), last = try #require(summary.end)
        #expect((summary.timeline.first?.start ?? 0) >= first && (summary.timeline.last?.end ?? .infinity) <= last,
                "\(scenario): rows \(first)–\(last), timeline \(summary.timeline.first?.start ?? 0)–\(summary.timeline.last?.end ?? 0)")
        let start = ScenarioRecording.startEpoch
        let truthStops = ScenarioRecording.truthStops(scenario, seconds: seconds)
        let found = summary.timeline.filter { $0.type == .stop }
        for (a, b) in truthStops where b - a >= 300 {
            let covered = found.map { max(0, min($0.end, start + b) - max($0.start, start + a)) }.reduce(0, +)
            #expect(covered >= 0.9 * (b - a), "\(scenario): the stop at \(a)–\(b) s was not found: \(found)")
        }
        // The moves' distances add up to the track's (each rounded to 0.1 m; measured apart
        // they once added up to 6136.2 m of 6128.4).
        let moves = summary.timeline.filter { $0.type == .move && $0.basis != .gapSpeed }
        let sum = moves.compactMap(\.distanceM).reduce(0, +)
        #expect(abs(sum - summary.distanceM) <= 0.05 * Double(moves.count) + 0.05, "\(scenario): moves \(sum) m, track \(summary.distanceM) m")
        for stop in found {
            let overlap = truthStops.map { max(0, min(stop.end, start + $0.1) - max(stop.start, start + $0.0)) }.reduce(0, +)
            #expect(overlap >= 0.5 * stop.duration, "\(scenario): a stop where there is none: \(stop)")
        }
    }

    @Test func commute() throws { try check(.commute, imu: true) }
    @Test func commuteGPSOnly() throws { try check(.commute, imu: false) }
    @Test func car() throws { try check(.car, imu: true) }
    @Test func carGPSOnly() throws { try check(.car, imu: false) }
    @Test func ride() throws { try check(.ride, imu: true) }
    @Test func night() throws { try check(.night, imu: true, rate: 10) }
    /// At 10 Hz nothing above 5 Hz is sampled: no vibration to tell a bicycle from a car, so
    /// the speed rules decide (both rides were "vehicle" by a vibration of nothing).
    @Test func commuteAt10Hz() throws { try check(.commute, imu: true, rate: 10) }
    @Test func carAt10Hz() throws { try check(.car, imu: true, rate: 10) }
}
