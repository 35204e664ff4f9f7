import Foundation
import MotionAnalysis
import MotionSimulator
import Testing

/// GPS-only traces with the faults of real ones (GeoLife-like: no Doppler speed, jitter of
/// several metres, sparse fixes, signal lost in a subway), built from a seeded noise source.
@Suite struct RealisticGPSTests {
    let t0 = 1_763_700_000.0
    static let header = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"

    /// Walks north at `speed` m/s for `seconds`, one fix every `step` s, with white position noise.
    func leg(from start: (Double, Double, Double), speed: Double, seconds: Double, step: Double, noise: Double,
             channel: UInt64) -> (String, (Double, Double, Double)) {
        var text = ""
        var (t, north, east) = start
        var k = 0.0
        while k < seconds {
            let n = north + noise * DeterministicNoise.gaussian(time: t, channel: channel)
            let e = east + noise * DeterministicNoise.gaussian(time: t, channel: channel + 1)
            let lat = 39.9 + n / 111_195, lon = 116.3 + e / (111_195 * cos(39.9 * Double.pi / 180))
            text += "L,W,\(t),\(lat),\(lon),nan,nan,nan,nan,nan,nan,2\n"
            t += step; k += step; north += speed * step
        }
        return (text, (t, north, east))
    }

    func analyse(_ text: String) throws -> AnalysisSummary {
        try ScenarioRecording.summarize(Self.header + text)
    }

    func seconds(_ s: AnalysisSummary, _ activity: Activity, from: Double, to: Double) -> Double {
        s.timeline.filter { $0.type == .move && $0.activity == activity }
            .map { max(0, min($0.end, to) - max($0.start, from)) }.reduce(0, +)
    }

    /// One steady leg and how much of it must come out as its activity.
    struct SteadyLeg: Sendable, CustomTestStringConvertible {
        var activity: Activity, speed: Double, seconds: Double, step: Double, noise: Double, channel: UInt64
        var minimum: Double
        var testDescription: String { "\(activity) at \(speed) m/s, a fix every \(step) s" }
    }

    /// A jittery walk at 1 Hz; a cycle at one fix in 5 s; a logger saving one fix every
    /// 30–90 s (GeoLife's long train trips: the kind of motion must not be decided on one
    /// fix — a train at 28 m/s was "walking" before), and a walk sampled as sparsely.
    /// Near the walk–run transition (about 2 m/s): a brisk walk at 1.8 m/s is walking, and a
    /// slow ride at 2.1 m/s (GeoLife user 179 rode 20 minutes at 2.0–2.2 m/s) is cycling.
    @Test(arguments: [
        SteadyLeg(activity: .walking, speed: 1.3, seconds: 1200, step: 1, noise: 6, channel: 50, minimum: 0.9 * 1200),
        SteadyLeg(activity: .cycling, speed: 4.5, seconds: 1200, step: 5, noise: 5, channel: 60, minimum: 0.9 * 1200),
        SteadyLeg(activity: .vehicle, speed: 28, seconds: 3600, step: 30, noise: 15, channel: 80, minimum: 0.95 * (3600 - 30)),
        SteadyLeg(activity: .vehicle, speed: 28, seconds: 3600, step: 60, noise: 15, channel: 80, minimum: 0.95 * (3600 - 60)),
        SteadyLeg(activity: .vehicle, speed: 28, seconds: 3600, step: 90, noise: 15, channel: 80, minimum: 0.95 * (3600 - 90)),
        SteadyLeg(activity: .walking, speed: 1.3, seconds: 1800, step: 30, noise: 6, channel: 90, minimum: 0.9 * 1770),
        SteadyLeg(activity: .walking, speed: 1.8, seconds: 900, step: 1, noise: 4, channel: 100, minimum: 0.9 * 900),
        SteadyLeg(activity: .cycling, speed: 2.1, seconds: 900, step: 1, noise: 4, channel: 110, minimum: 0.9 * 900),
    ])
    func steadyLegIsItsActivity(_ c: SteadyLeg) throws {
        let (text, _) = leg(from: (t0, 0, 0), speed: c.speed, seconds: c.seconds, step: c.step, noise: c.noise, channel: c.channel)
        let s = try analyse(text)
        let right = seconds(s, c.activity, from: t0, to: t0 + c.seconds)
        #expect(right >= c.minimum, "\(c.activity) \(right) s of \(c.seconds): \(s.timeline)")
    }

    @Test func subwaySignalLossIsAVehicleMove() throws {
        var (a, end) = leg(from: (t0, 0, 0), speed: 1.3, seconds: 300, step: 2, noise: 5, channel: 70)
        // 15 minutes underground, 9 km further on.
        let (b, _) = leg(from: (end.0 + 900, end.1 + 9000, end.2), speed: 1.3, seconds: 300, step: 2, noise: 5, channel: 72)
        a += b
        let s = try analyse(a)
        let vehicle = seconds(s, .vehicle, from: end.0, to: end.0 + 900)
        #expect(vehicle >= 850, "vehicle \(vehicle) s over the 900 s loss: \(s.timeline)")
        #expect(!s.timeline.contains { $0.type == .gap })
        #expect(seconds(s, .walking, from: t0, to: t0 + 2000) >= 500)
    }

    /// A train logged every 60 s with losses of 3 min (bridged as vehicle) is one move, not a
    /// row of vehicle pieces; its distance is the sum of the pieces'.
    @Test func sparseTrainWithLossesIsOneMove() throws {
        var text = "", start = (t0, 0.0, 0.0)
        for k in 0..<6 {
            let (piece, end) = leg(from: start, speed: 28, seconds: 600, step: 60, noise: 15, channel: 100 + UInt64(k) * 2)
            text += piece
            start = (end.0 + 180, end.1 + 28 * 180, end.2)   // 3 minutes without a fix
        }
        let s = try analyse(text)
        let moves = s.timeline.filter { $0.type == .move }
        #expect(moves.count == 1 && moves.first?.activity == .vehicle, "\(s.timeline)")
        let distance = try #require(moves.first?.distanceM)
        #expect(abs(distance - 28 * (6 * 600 + 5 * 180 - 60)) < 0.03 * 28 * 4440, "\(distance) m")
    }

    @Test func twoFixesBetweenBridgedLossesAreNotAWalk() throws {
        // GeoLife user 010's train: a fix a minute, a loss of 2 min, two fixes 70 s apart,
        // a loss of 4 min. Two fixes are too few to judge by their speeds, but 1.8 km in
        // 70 s is no walk (it was "walking, 94 km/h").
        var text = "", start = (t0, 0.0, 0.0)
        for (k, (seconds, step)) in [(600.0, 60.0), (140.0, 70.0), (600.0, 60.0)].enumerated() {
            let (piece, end) = leg(from: start, speed: 26, seconds: seconds, step: step, noise: 15, channel: 200 + UInt64(k) * 2)
            text += piece
            let loss = k == 0 ? 124.0 : 257.0
            start = (end.0 - step + loss, end.1 + 26 * (loss - step), end.2)
        }
        let s = try analyse(text)
        let moves = s.timeline.filter { $0.type == .move }
        #expect(!moves.isEmpty && moves.allSatisfy { $0.activity == .vehicle }, "\(s.timeline)")
    }

    @Test func aShortPieceBetweenBridgedLossesTakesItsNeighboursActivity() throws {
        // A train at 21 m/s, a fix a minute; two losses of 130 s (bridged) with two fixes
        // 11 s and 231 m apart between them: too short to be a walk of its own (it was
        // "walking, 75.6 km/h").
        var text = "", start = (t0, 0.0, 0.0)
        for (k, (seconds, step)) in [(600.0, 60.0), (22.0, 11.0), (600.0, 60.0)].enumerated() {
            let (piece, end) = leg(from: start, speed: 21, seconds: seconds, step: step, noise: 10, channel: 300 + UInt64(k) * 2)
            text += piece
            start = (end.0 - step + 130, end.1 + 21 * (130 - step), end.2)
        }
        let s = try analyse(text)
        let moves = s.timeline.filter { $0.type == .move }
        #expect(!moves.isEmpty && moves.allSatisfy { $0.activity == .vehicle }, "\(s.timeline)")
    }
}
