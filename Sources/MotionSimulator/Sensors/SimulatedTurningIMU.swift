import Foundation
import MotionCore
import MotionMath

/// The simulator's IMU while someone calibrates it: it lies still, face up, for
/// `stillSeconds`, then a hand turns it slowly through all orientations (three rotations at
/// unrelated rates, about 10–35 °/s). Raw rows carry the same kinds of imperfection as
/// `SimulatedIMU` (gyro bias, hard- and soft-iron distortion, noise), so a calibration
/// computed from them can be compared with `imperfections`. Deterministic in time.
public final class SimulatedTurningIMU: MotionSensor {
    public let field: EarthField
    public let imperfections: IMUImperfections
    public let stillSeconds: Double
    public private(set) var health = SensorHealth()

    public init(field: EarthField = EarthField(), imperfections: IMUImperfections = IMUImperfections(),
                stillSeconds: Double = 6) {
        self.field = field; self.imperfections = imperfections; self.stillSeconds = stillSeconds
    }

    public var info: SensorInfo {
        SensorInfo(model: "simulated 9-axis IMU turned by hand (calibration motion)", accelRangeG: 16,
                   gyroRangeDegPerSec: 2000, magRangeMicroTesla: 4900,
                   notes: ["still for \(stillSeconds) s, then turned through all orientations"])
    }

    public func start(rateHz: Int) throws {}

    /// Device → ENU at `t` seconds.
    public func attitude(at t: Double) -> Quaternion {
        let s = max(0, t - stillSeconds)
        // Smooth start: the angles ramp in over the first 2 s of turning.
        let ramp = s < 2 ? s * s / 4 : s - 1
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: 0.61 * ramp)
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: 0.43 * ramp)
        let qy = Quaternion(axis: Vector3(0, 1, 0), angle: 0.23 * ramp)
        return qz * qx * qy
    }

    public func read(at tick: Tick) -> MotionReading {
        let t = tick.elapsed
        let p = imperfections
        let h = 1e-3
        let q = attitude(at: t)
        // Body rate from the attitude change over ±h.
        let dq = attitude(at: t - h).conjugate * attitude(at: t + h)
        let d = dq.w < 0 ? Quaternion(w: -dq.w, x: -dq.x, y: -dq.y, z: -dq.z) : dq
        let angle = 2 * atan2(d.vector.norm, d.w)
        let omega = d.vector.norm > 0 ? d.vector.normalized * (angle / (2 * h)) : .zero
        let accel = q.inverseRotate(Vector3(0, 0, -1))
        let mag = p.magSoftIron * q.inverseRotate(field.enu) + p.magHardIron
        return MotionReading(accel: accel + noise(t, p.accelNoise, base: 30),
                             gyro: omega + p.gyroBias + noise(t, p.gyroNoise, base: 33),
                             mag: mag + noise(t, p.magNoise, base: 36))
    }

    private func noise(_ t: Double, _ sigma: Double, base: UInt64) -> Vector3 {
        guard sigma > 0 else { return .zero }
        return Vector3(DeterministicNoise.gaussian(time: t, channel: base),
                       DeterministicNoise.gaussian(time: t, channel: base + 1),
                       DeterministicNoise.gaussian(time: t, channel: base + 2)) * sigma
    }
}
