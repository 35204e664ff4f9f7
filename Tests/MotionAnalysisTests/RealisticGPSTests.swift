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
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try (Self.header + text).write(toFile: dir + "/trace.csv", atomically: true, encoding: .utf8)
        return try RecordingAnalyzer.summarize([dir + "/trace.csv"])
    }

    func seconds(_ s: AnalysisSummary, _ activity: Activity, from: Double, to: Double) -> Double {
        s.timeline.filter { $0.type == .move && $0.activity == activity }
            .map { max(0, min($0.end, to) - max($0.start, from)) }.reduce(0, +)
    }

    @Test func jitteryWalkIsWalking() throws {
        let (text, _) = leg(from: (t0, 0, 0), speed: 1.3, seconds: 1200, step: 1, noise: 6, channel: 50)
        let s = try analyse(text)
        let walking = seconds(s, .walking, from: t0, to: t0 + 1200)
        #expect(walking >= 0.9 * 1200, "walking \(walking) s of 1200: \(s.timeline)")
    }

    @Test func sparseCycleIsCycling() throws {
        let (text, _) = leg(from: (t0, 0, 0), speed: 4.5, seconds: 1200, step: 5, noise: 5, channel: 60)
        let s = try analyse(text)
        let cycling = seconds(s, .cycling, from: t0, to: t0 + 1200)
        #expect(cycling >= 0.9 * 1200, "cycling \(cycling) s of 1200: \(s.timeline)")
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

    /// A logger saving one fix a minute (GeoLife's long train trips): the kind of motion
    /// must not be decided on one fix (a train at 28 m/s was "walking" before).
    @Test(arguments: [30.0, 60.0, 90.0])
    func sparseTrainIsAVehicle(step: Double) throws {
        let (text, _) = leg(from: (t0, 0, 0), speed: 28, seconds: 3600, step: step, noise: 15, channel: 80)
        let s = try analyse(text)
        let vehicle = seconds(s, .vehicle, from: t0, to: t0 + 3600)
        #expect(vehicle >= 0.95 * (3600 - step), "vehicle \(vehicle) s of 3600: \(s.timeline)")
    }

    /// A walk sampled as sparsely stays a walk.
    @Test func sparseWalkIsWalking() throws {
        let (text, _) = leg(from: (t0, 0, 0), speed: 1.3, seconds: 1800, step: 30, noise: 6, channel: 90)
        let s = try analyse(text)
        let walking = seconds(s, .walking, from: t0, to: t0 + 1800)
        #expect(walking >= 0.9 * 1770, "walking \(walking) s of 1800: \(s.timeline)")
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
}
