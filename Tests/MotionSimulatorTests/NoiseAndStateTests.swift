import Foundation
import MotionCore
import MotionMath
@testable import MotionSimulator
import Testing

@Suite("The simulator's noise is normal and its shortcuts compute the same quantities")
struct NoiseAndStateTests {
    /// 400 000 samples of the ziggurat (consecutive milliseconds, seven channels) against
    /// the standard normal: moments, the tail beyond the ziggurat's base (r ≈ 3.654), and
    /// the Kolmogorov–Smirnov distance to Φ.
    @Test func zigguratSamplesAreStandardNormal() {
        var samples: [Double] = []
        samples.reserveCapacity(400_000)
        for k in 0..<57_143 {
            for channel in UInt64(0)..<7 where samples.count < 400_000 {
                samples.append(DeterministicNoise.gaussian(time: Double(k) / 1000, channel: channel))
            }
        }
        let n = Double(samples.count)
        let mean = samples.reduce(0, +) / n
        let variance = samples.reduce(0) { s, x in s + (x - mean) * (x - mean) } / n
        let fourth = samples.reduce(0) { s, x in s + x * x * x * x } / n
        #expect(abs(mean) < 0.006)                 // σ/√n = 0.0016
        #expect(abs(variance - 1) < 0.008)         // √(2/n) = 0.0022
        #expect(abs(fourth - 3) < 0.05)            // √(96/n) = 0.015
        // P(|x| > 3.6541528853610088) = 2.58e-4: about 103 expected, all from the tail method.
        let tail = samples.filter { x in abs(x) > 3.6541528853610088 }.count
        #expect(tail > 60 && tail < 150)
        #expect(samples.contains { x in abs(x) > 4.2 })
        let sorted = samples.sorted()
        var ks = 0.0
        for (i, x) in sorted.enumerated() {
            let phi = 0.5 * erfc(-x / 2.0.squareRoot())
            ks = max(ks, abs(phi - Double(i) / n), abs(phi - Double(i + 1) / n))
        }
        #expect(ks < 1.63 / n.squareRoot())        // the 1 % critical value
        // Independent channels: the correlation of neighbours is what chance gives (1/√n).
        var c = 0.0
        for i in stride(from: 0, to: samples.count - 1, by: 7) { c += samples[i] * samples[i + 1] }
        #expect(abs(c / (n / 7)) < 0.012)
    }

    @Test func noiseIsAFunctionOfTimeAndChannelAlone() {
        let a = DeterministicNoise.gaussian(time: 12.345, channel: 3)
        #expect(DeterministicNoise.gaussian(nanos: 12_345_000_000, channel: 3) == a)
        #expect(DeterministicNoise.gaussian(time: 12.345, channel: 4) != a)
        #expect(DeterministicNoise.gaussian(time: 12.346, channel: 3) != a)
    }

    /// One IMU read tick after tick (remembering the ride states between ticks) gives the
    /// very values a fresh IMU computes for each tick alone.
    @Test func rememberedStatesGiveTheSameReadings() {
        let running = SimulatedIMU(ride: BikeRide.standard.withPedalling())
        for k in stride(from: 0, to: 3_000, by: 1) {
            let t = Double(k) / 1000
            let tick = Tick(index: Int64(k), monotonicNanos: 0, when: t, elapsed: t, epoch: 1_763_735_406 + t)
            let r = running.read(at: tick)
            if k % 97 == 0 || k < 3 {
                #expect(SimulatedIMU(ride: BikeRide.standard.withPedalling()).read(at: tick) == r)
            }
        }
    }

    /// The state's sines and cosines from half angles and the grade are the rotations and
    /// the velocity the axis-angle formulas give.
    @Test func stateMatchesTheAxisAngleFormulas() {
        let ride = BikeRide.standard.withPedalling()
        for t in stride(from: 0.0, to: 700, by: 0.37) {
            let s = ride.state(at: t)
            let p = ride.profile(at: t - (t / ride.loopDuration).rounded(.down) * ride.loopDuration)
            let c = p.course * Double.pi / 180
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: -c) * Quaternion(axis: Vector3(1, 0, 0), angle: s.pitch)
                * Quaternion(axis: Vector3(0, 1, 0), angle: s.lean)
            #expect(abs(q.w - s.attitude.w) + abs(q.x - s.attitude.x) + abs(q.y - s.attitude.y) + abs(q.z - s.attitude.z) < 1e-12)
            #expect(abs(s.pitch - atan(p.grade)) < 1e-15)
            if ride.pedalling == nil || p.speed == 0 {
                let v = BikeRide.velocity(speed: p.speed, course: p.course, grade: p.grade)
                #expect((v - s.velocity).norm < 1e-12)
            }
        }
        // Without pedalling the velocity is exactly the course and grade's.
        let plain = BikeRide.standard
        for t in stride(from: 0.0, to: plain.loopDuration, by: 0.41) {
            let p = plain.profile(at: t)
            let v = BikeRide.velocity(speed: p.speed, course: p.course, grade: p.grade)
            #expect((v - plain.state(at: t).velocity).norm < 1e-12)
        }
    }
}
