import MotionCore
import MotionFusion
import MotionMath

/// Feeds a `DeviceMotionFilter` a scripted motion and records what it said.
struct Run {
    var attitude: (Double) -> Quaternion
    var linear: (Double) -> Vector3 = { _ in .zero }
    var field: (Double) -> Vector3 = { _ in Synthetic.field }
    var gyroBias = Vector3.zero
    var noise: (accel: Double, gyro: Double, mag: Double) = (0, 0, 0)
    var rate = 100.0
    var useMagnetometer = true

    struct Step {
        var time: Double
        var truth: Quaternion
        var motion: DeviceMotion
        var estimate: OrientationEstimate
    }

    /// Runs for `seconds`; `filter` may be given to keep one across runs.
    func run(seconds: Double, filter: DeviceMotionFilter, start: Double = 0,
             _ each: (Step) -> Void = { _ in }) {
        var rng = NoiseSource(seed: 42)
        let dt = 1 / rate
        let steps = Int((seconds * rate).rounded())
        for k in 0..<steps {
            let t = start + Double(k) * dt
            let q = attitude(t)
            let rateVector = Synthetic.rate(from: attitude(t - dt), to: q, dt: dt)
            let a = Synthetic.accel(q, linear: linear(t)) + rng.vector(noise.accel)
            let g = rateVector + gyroBias + rng.vector(noise.gyro)
            let m = Synthetic.mag(q, field: field(t)) + rng.vector(noise.mag)
            let motion = filter.update(accel: a, gyro: g, mag: useMagnetometer ? m : nil, dt: dt)
            each(Step(time: t, truth: q, motion: motion, estimate: filter.estimate))
        }
    }
}
