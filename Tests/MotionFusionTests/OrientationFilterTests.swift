import Foundation
import MotionCore
import MotionFusion
import MotionMath
import Testing

@Suite("Orientation filter")
struct OrientationFilterTests {
    let deg = Synthetic.degree

    static let poses: [(String, Quaternion)] = [
        ("flat, top north", .identity),
        ("flat, top west", Quaternion(axis: Vector3(0, 0, 1), angle: Double.pi / 2)),
        ("tilted 35° about a diagonal, heading 200°", Quaternion(axis: Vector3(0, 0, 1), angle: -200 * Double.pi / 180)
            * Quaternion(axis: Vector3(1, 1, 0), angle: 35 * Double.pi / 180)),
        ("upright in portrait", Quaternion(axis: Vector3(1, 0, 0), angle: Double.pi / 2)),
        ("face down", Quaternion(axis: Vector3(0, 1, 0), angle: Double.pi)),
        ("arbitrary", Quaternion(axis: Vector3(0.3, -0.8, 0.52), angle: 2.4)),
    ]

    @Test("static attitude is exact, from the first sample on", arguments: poses)
    func staticExact(_ pose: (String, Quaternion)) throws {
        let filter = try DeviceMotionFilter()
        var first: Double?, worst = 0.0
        Run(attitude: { _ in pose.1 }).run(seconds: 10, filter: filter) { s in
            let e = Synthetic.angle(s.motion.attitude, s.truth)
            if first == nil { first = e }
            worst = max(worst, e)
        }
        #expect(try #require(first) < 1e-9, "\(pose.0): first sample")
        #expect(worst < 1e-9, "\(pose.0): worst over 10 s")
    }

    /// A value the format accepts but no sensor gives (a gyro reading of 1e300, an
    /// accelerometer one of 1e100) is skipped like a NaN: before, every later D row of a
    /// fused file was NaN, or GPS aiding was off for the rest of it.
    @Test("an impossible sample leaves the state as it was", arguments: [
        (Vector3(0, 0, -1), Vector3(1e300, 0, 0)), (Vector3(1e100, 0, -1), Vector3(0, 0, 0)), (Vector3(0, 0, -1), Vector3(0, 2e6, 0)),
    ])
    func impossibleSampleIsSkipped(_ bad: (Vector3, Vector3)) throws {
        let filter = try DeviceMotionFilter()
        let mag = Vector3(20, 0, -40)
        var before: DeviceMotion?
        for k in 0..<600 {
            let (a, g) = k == 300 ? bad : (Vector3(0, 0, -1), Vector3(0, 0, 0))
            let d = filter.update(accel: a, gyro: g, mag: mag, dt: 0.01)
            if k == 299 { before = d }
            guard k > 300 else { continue }
            let b = try #require(before)
            #expect(Synthetic.angle(d.attitude, b.attitude) < 1e-6, "sample \(k) after \(bad)")
            #expect(d.userAcceleration.norm < 1e-6 && d.pitch.isFinite && d.roll.isFinite && d.yaw.isFinite)
        }
    }

    @Test("initial attitude right from the first noisy sample (no convergence from a guess)")
    func initialAttitude() throws {
        let filter = try DeviceMotionFilter()
        let truth = Quaternion(axis: Vector3(0.2, 0.5, -0.3), angle: 1.9)
        var errors: [Double] = []
        Run(attitude: { _ in truth }, noise: (0.004, 0.003, 0.3)).run(seconds: 2, filter: filter) { s in
            errors.append(Synthetic.angle(s.motion.attitude, s.truth))
        }
        // Single-sample noise: a fraction of a degree, then better as samples are averaged.
        #expect(errors[0] < 1.5 * deg)
        #expect(errors.max()! < 1.5 * deg)
        #expect(errors.last! < 0.5 * deg)
    }

    @Test("constant-rate rotation integrates (tumbling about a tilted axis, 60 °/s)")
    func constantRate() throws {
        let filter = try DeviceMotionFilter()
        let axis = Vector3(1, 2, 3).normalized
        let start = Quaternion(axis: Vector3(1, 0, 0), angle: 0.4)
        var worst = 0.0
        Run(attitude: { t in start * Quaternion(axis: axis, angle: 60 * Double.pi / 180 * t) })
            .run(seconds: 20, filter: filter) { s in worst = max(worst, Synthetic.angle(s.motion.attitude, s.truth)) }
        #expect(worst < 0.05 * deg)
    }

    @Test("yaw follows the gyroscope with the measured, irregular sample period (no magnetometer)")
    func measuredPeriod() throws {
        var p = FusionParameters()
        p.useMagnetometer = false
        let filter = try DeviceMotionFilter(parameters: p)
        let rate = 0.5  // rad/s about the vertical, device flat
        var noise = NoiseSource(seed: 3)
        var t = 0.0, yaw0: Double?
        var last = DeviceMotion(rotationRate: .zero, userAcceleration: .zero, gravity: .zero, attitude: .identity,
                                pitch: 0, roll: 0, yaw: 0)
        for k in 0..<2000 {
            // Periods between 5 and 15 ms, as a jittery clock would give.
            let dt = k == 0 ? 0.01 : 0.005 + 0.01 * noise.uniform()
            t += k == 0 ? 0 : dt
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: rate * t)
            last = filter.update(accel: Synthetic.accel(q), gyro: Vector3(0, 0, rate), mag: nil, dt: dt)
            if yaw0 == nil { yaw0 = last.yaw }
        }
        #expect(yaw0 == 0, "without a magnetometer yaw starts at 0")
        #expect(abs(remainder(last.yaw - rate * t, 2 * Double.pi)) < 1e-6)
    }

    @Test("without a magnetometer yaw starts at 0 whatever the heading; pitch and roll are right")
    func noMagnetometer() throws {
        let filter = try DeviceMotionFilter()
        let truth = Quaternion(axis: Vector3(0, 0, 1), angle: 2.0) * Quaternion(axis: Vector3(1, 0, 0), angle: 0.3)
        var motions: [DeviceMotion] = []
        Run(attitude: { _ in truth }, useMagnetometer: false).run(seconds: 1, filter: filter) { motions.append($0.motion) }
        #expect(abs(motions[0].yaw) < 1e-12)
        #expect(abs(motions[0].pitch - 0.3) < 1e-9)
        #expect(abs(motions.last!.yaw) < 1e-9)
    }

    @Test("yaw with a declination is referenced to true north")
    func declination() throws {
        var p = FusionParameters()
        p.declination = 10 * deg
        let filter = try DeviceMotionFilter(parameters: p)
        var yaw = 0.0
        // Top edge towards magnetic north: the true heading is 10° east, so yaw = −10°.
        Run(attitude: { _ in .identity }).run(seconds: 1, filter: filter) { yaw = $0.motion.yaw }
        #expect(abs(yaw + 10 * deg) < 1e-9)
    }

    @Test("at rest, gravity has norm 1 g, user acceleration is 0 and A − UA is gravity")
    func gravityAtRest() throws {
        let filter = try DeviceMotionFilter()
        let truth = Quaternion(axis: Vector3(0.6, -0.2, 0.1), angle: 0.8)
        Run(attitude: { _ in truth }).run(seconds: 3, filter: filter) { s in
            let a = Synthetic.accel(truth)
            #expect(abs(s.motion.gravity.norm - 1) < 1e-12)
            #expect(s.motion.userAcceleration.norm < 1e-9)
            #expect((a - s.motion.userAcceleration - s.motion.gravity).norm < 1e-12)
        }
    }

    @Test("user acceleration is the linear acceleration in the device frame")
    func userAcceleration() throws {
        let filter = try DeviceMotionFilter()
        let truth = Quaternion(axis: Vector3(0, 0, 1), angle: 0.7)
        var last: Run.Step?
        // Shaking east and west at 1 Hz, ±0.05 g: far above the accelerometer filter's cut-off.
        let shake: (Double) -> Vector3 = { t in Vector3(0.05 * sin(2 * Double.pi * t + 0.3), 0, 0) }
        Run(attitude: { _ in truth }, linear: shake).run(seconds: 10, filter: filter) { last = $0 }
        let s = try #require(last)
        // The A row is −specific force, so the user acceleration is the negated linear acceleration.
        let expected = -truth.inverseRotate(shake(s.time))
        // What remains is the tilt the shaking leaves in the estimate (a few hundredths of a degree
        // of bias estimate): far below the 0.05 g signal.
        #expect((s.motion.userAcceleration - expected).norm < 5e-3)
        #expect(s.motion.userAcceleration.norm > 0.02 || abs(sin(2 * Double.pi * s.time + 0.3)) < 0.4)
    }

    @Test("gyroscope bias converges at rest; the reported rate becomes bias-free")
    func biasAtRest() throws {
        let filter = try DeviceMotionFilter()
        let bias = Vector3(0.01, -0.015, 0.02)  // 0.6 … 1.1 °/s
        var last: Run.Step?
        Run(attitude: { _ in Quaternion(axis: Vector3(1, 1, 0), angle: 0.3) }, gyroBias: bias,
            noise: (0.002, 0.002, 0.2)).run(seconds: 30, filter: filter) { last = $0 }
        let s = try #require(last)
        #expect(s.estimate.atRest)
        #expect((s.estimate.gyroBias - bias).norm < 0.01 * deg)
        #expect(s.motion.rotationRate.norm < 0.3 * deg)
        #expect(Synthetic.angle(s.motion.attitude, s.truth) < 0.5 * deg)
    }

    @Test("gyroscope bias converges while moving (never at rest), from the inclination correction")
    func biasInMotion() throws {
        var p = FusionParameters()
        p.restBiasEstimation = false
        p.useMagnetometer = false
        let filter = try DeviceMotionFilter(parameters: p)
        let bias = Vector3(0.012, -0.008, 0.01)
        // Wobbling and turning: every device axis spends time horizontal.
        let motion: (Double) -> Quaternion = { t in
            Quaternion(axis: Vector3(0, 0, 1), angle: 0.3 * t)
                * Quaternion(axis: Vector3(1, 0, 0), angle: 0.8 * sin(0.21 * t))
                * Quaternion(axis: Vector3(0, 1, 0), angle: 0.8 * sin(0.13 * t + 1))
        }
        var last: Run.Step?, everAtRest = false
        Run(attitude: motion, gyroBias: bias, noise: (0.002, 0.002, 0)).run(seconds: 300, filter: filter) { s in
            last = s
            everAtRest = everAtRest || s.estimate.atRest
        }
        let s = try #require(last)
        #expect(!everAtRest)
        #expect((s.estimate.gyroBias - bias).norm < 0.1 * deg, "bias \(s.estimate.gyroBias) vs \(bias)")
        #expect(Synthetic.inclination(s.motion.attitude, s.truth) < 0.3 * deg)
    }

    /// The optional acceleration rejection (off by default: docs/FUSION.md says why).
    static var rejecting: FusionParameters {
        var p = FusionParameters()
        p.accelRejectionThreshold = 0.1
        return p
    }

    @Test("acceleration rejection (0.1 g, optional): braking at 0.4 g for 2 s barely tilts the estimate, which then recovers")
    func accelerationRejection() throws {
        let filter = try DeviceMotionFilter(parameters: Self.rejecting)
        let truth = Quaternion(axis: Vector3(0, 0, 1), angle: 0.5)
        let braking: (Double) -> Vector3 = { t in (10..<12).contains(t) ? Vector3(0, -0.4, 0) : .zero }
        var during = 0.0, after = 0.0, tiltFromAccelerometer = 0.0, engaged = 0, engagedAfter = false
        Run(attitude: { _ in truth }, linear: braking).run(seconds: 40, filter: filter) { s in
            let e = Synthetic.inclination(s.motion.attitude, s.truth)
            if s.estimate.accelerationRejected {
                if (10..<12).contains(s.time) { engaged += 1 } else { engagedAfter = true }
            }
            if (10..<14).contains(s.time) {
                during = max(during, e)
                let a = -Synthetic.accel(truth, linear: braking(s.time))
                tiltFromAccelerometer = max(tiltFromAccelerometer, acos(a.normalized.dot(truth.inverseRotate(Vector3(0, 0, 1)))))
            }
            if s.time > 35 { after = max(after, e) }
        }
        #expect(tiltFromAccelerometer > 20 * deg)
        #expect(engaged == 200, "rejection engaged for every braking sample")
        #expect(!engagedAfter)
        #expect(during < 0.15 * tiltFromAccelerometer, "during \(during / deg)°")
        #expect(during > 0.05 * deg, "the filter does see the accelerometer")
        #expect(after < 0.2 * deg, "recovered: \(after / deg)°")
    }

    @Test("acceleration rejection (optional) does not stop recovery from a large error (a gyroscope glitch)")
    func rejectionRecovers() throws {
        let filter = try DeviceMotionFilter(parameters: Self.rejecting)
        let truth = Quaternion(axis: Vector3(0, 1, 0), angle: 0.2)
        var errorAfterGlitch = 0.0, recoveredAt: Double?
        for k in 0..<6000 {
            let t = Double(k) / 100
            // For 0.5 s at t = 5 s the gyroscope reports 1 rad/s about X that never happened.
            let glitch = (5..<5.5).contains(t) ? Vector3(1, 0, 0) : .zero
            let m = filter.update(accel: Synthetic.accel(truth), gyro: glitch, mag: Synthetic.mag(truth), dt: 0.01)
            let e = Synthetic.inclination(m.attitude, truth)
            if (5.5..<5.6).contains(t) { errorAfterGlitch = max(errorAfterGlitch, e) }
            if t > 5.5 && recoveredAt == nil && e < 1 * deg { recoveredAt = t }
        }
        #expect(errorAfterGlitch > 25 * deg)
        let recovered = try #require(recoveredAt)
        #expect(recovered - 5.5 < 30, "recovered to 1° after \(recovered - 5.5) s")
        #expect(Synthetic.inclination(filter.estimate.attitude, truth) < 0.1 * deg)
    }

    @Test("magnetic disturbance rejection engages, holds the heading, and recovers")
    func magneticDisturbance() throws {
        // Turn at 40 °/s for 12 s (the field reference is learned while rotating), hold still,
        // then a magnet adds 30 µT along device-independent east for 20 s.
        let turning: (Double) -> Quaternion = { t in
            Quaternion(axis: Vector3(0, 0, 1), angle: 40 * Double.pi / 180 * min(t, 12))
                * Quaternion(axis: Vector3(1, 0, 0), angle: 0.2)
        }
        let magnet: (Double) -> Vector3 = { t in
            (20..<40).contains(t) ? Synthetic.field + Vector3(30, 0, 0) : Synthetic.field
        }
        func headingErrors(rejection: Bool) throws -> (during: Double, after: Double, flagged: Bool, cleared: Bool) {
            var p = FusionParameters()
            p.magDisturbanceRejection = rejection
            let filter = try DeviceMotionFilter(parameters: p)
            var during = 0.0, after = 0.0, flagged = false, cleared = true
            Run(attitude: turning, field: magnet).run(seconds: 50, filter: filter) { s in
                let e = Synthetic.heading(s.motion.attitude, s.truth)
                if (20..<40).contains(s.time) { during = max(during, e) }
                if s.time > 41 { after = max(after, e); cleared = cleared && !s.estimate.magneticDisturbance }
                if (20.5..<40).contains(s.time) { flagged = flagged || s.estimate.magneticDisturbance }
            }
            return (during, after, flagged, cleared)
        }
        let with = try headingErrors(rejection: true)
        let without = try headingErrors(rejection: false)
        #expect(with.flagged)
        #expect(with.during < 0.5 * deg, "heading held: \(with.during / deg)°")
        #expect(without.during > 10 * deg, "without rejection the magnet pulls the heading: \(without.during / deg)°")
        #expect(with.cleared)
        #expect(with.after < 0.5 * deg)
    }

    @Test("calibration is applied: a hard-iron offset is harmless once calibrated")
    func calibrationApplied() throws {
        let hard = Vector3(25, -10, 15)
        let truth = Quaternion(axis: Vector3(0, 0, 1), angle: 1.0)
        func yawError(_ calibration: FusionCalibration) throws -> Double {
            let filter = try DeviceMotionFilter(calibration: calibration)
            var m = DeviceMotion(rotationRate: .zero, userAcceleration: .zero, gravity: .zero, attitude: .identity,
                                 pitch: 0, roll: 0, yaw: 0)
            for _ in 0..<100 {
                m = filter.update(accel: Synthetic.accel(truth), gyro: .zero, mag: Synthetic.mag(truth) + hard, dt: 0.01)
            }
            return abs(remainder(m.yaw - 1.0, 2 * Double.pi))
        }
        #expect(try yawError(FusionCalibration(magHardIron: hard)) < 1e-9)
        #expect(try yawError(.none) > 10 * deg)
    }

    @Test("an invalid calibration is refused with a message")
    func invalidCalibration() {
        let singular = FusionCalibration(magSoftIron: Matrix3(rows: Vector3(1, 0, 0), Vector3(1, 0, 0), Vector3(0, 0, 1)))
        #expect(throws: FusionSetupError.self) { try DeviceMotionFilter(calibration: singular) }
        #expect(throws: FusionSetupError.self) { try DeviceMotionFilter(calibration: FusionCalibration(gyroBias: Vector3(.nan, 0, 0))) }
    }

    @Test("non-finite samples leave the state unchanged; a long gap restarts from the sensors")
    func badInput() throws {
        let filter = try DeviceMotionFilter()
        let a = Quaternion(axis: Vector3(1, 0, 0), angle: 0.5)
        for _ in 0..<50 { _ = filter.update(accel: Synthetic.accel(a), gyro: .zero, mag: Synthetic.mag(a), dt: 0.01) }
        let before = filter.estimate.attitude
        let m = filter.update(accel: Vector3(.nan, 0, -1), gyro: Vector3(10, 10, 10), mag: nil, dt: 0.01)
        #expect(Synthetic.angle(m.attitude, before) < 1e-12)
        _ = filter.update(accel: Synthetic.accel(a), gyro: Vector3(0, 0, .infinity), mag: nil, dt: 0.01)
        #expect(Synthetic.angle(filter.estimate.attitude, before) < 1e-12)
        // After 5 s without samples the device lies elsewhere: the first sample sets it.
        let b = Quaternion(axis: Vector3(0, 1, 0), angle: -1.0)
        let after = filter.update(accel: Synthetic.accel(b), gyro: .zero, mag: Synthetic.mag(b), dt: 5)
        #expect(Synthetic.angle(after.attitude, b) < 1e-9)
    }
}
