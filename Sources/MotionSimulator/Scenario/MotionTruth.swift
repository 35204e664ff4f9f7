import Foundation
import MotionMath

/// Ideal (noise-free) sensor values of the ride, in the device frame and the format's
/// units and signs: what a perfect IMU on the handlebar would report.
public struct MotionTruth: Sendable, Equatable {
    /// Accelerometer, g, CoreMotion sign: −(specific force) / g; at rest face up (0, 0, −1).
    public var accel: Vector3
    /// Angular rate, rad/s, right-handed about the device axes.
    public var gyro: Vector3
    /// Magnetic field, µT (Earth's field only, no device bias).
    public var mag: Vector3
    /// Gravity in the device frame, g, CoreMotion sign ((0, 0, −1) face up).
    public var gravity: Vector3
    /// Attitude, device → ENU.
    public var attitude: Quaternion
}

extension BikeRide {
    /// The ideal sensor values at `time`. Velocity and attitude are differentiated
    /// numerically (central differences over ±1 ms), so accelerations and rates are
    /// consistent with the trajectory by construction.
    public func truth(at time: Double, field: EarthField = EarthField()) -> MotionTruth {
        truthAndState(at: time, field: field).truth
    }

    /// The truth and the ride's state at `time` (computed once for both: the simulated IMU
    /// needs the state too, and a state costs a profile lookup and three rotations).
    public func truthAndState(at time: Double, field: EarthField = EarthField()) -> (truth: MotionTruth, state: RideState) {
        let h = 1e-3
        let t0 = max(time, h)
        let before = state(at: t0 - h), now = state(at: t0), after = state(at: t0 + h)
        let q = now.attitude
        // Kinematic acceleration (ENU, m/s²) and specific force f = a − g⃗, with g⃗ = (0, 0, −g).
        let a = (after.velocity - before.velocity) / (2 * h)
        let f = a + Vector3(0, 0, BikeRide.gravity)
        let fDevice = q.inverseRotate(f)
        // Body rate from the attitude change: q(t−h)⁻¹ · q(t+h) ≈ rotation by ω·2h in the body frame.
        let dq = before.attitude.conjugate * after.attitude
        let dqn = dq.w < 0 ? Quaternion(w: -dq.w, x: -dq.x, y: -dq.y, z: -dq.z) : dq
        let angle = 2 * atan2(dqn.vector.norm, dqn.w)
        let axis = dqn.vector.norm > 0 ? dqn.vector.normalized : .zero
        let omega = axis * (angle / (2 * h))
        let gravityDevice = q.inverseRotate(Vector3(0, 0, -1))
        let truth = MotionTruth(accel: -fDevice / BikeRide.gravity, gyro: omega, mag: q.inverseRotate(field.enu),
                                gravity: gravityDevice, attitude: q)
        // Before the first millisecond the differences are taken at t0 = h, not at `time`.
        return (truth, t0 == time ? now : state(at: time))
    }
}
