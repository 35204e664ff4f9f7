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
        truthAndState(at: time, fieldENU: field.enu, states: RideStateCache())
    }

    /// The same, with the field already in ENU and the states at the difference times taken
    /// from `states` when they were computed before. The differences are taken on the
    /// nanosecond grid (t ± 1 ms with t resolved to the nanosecond), so the state at t + 1 ms
    /// of one 1 kHz tick is the very state at t of the next and the state at t − 1 ms the one
    /// at t of the previous: one new state per tick instead of three, the same values either way.
    func truthAndState(at time: Double, fieldENU: Vector3, states: RideStateCache) -> (truth: MotionTruth, state: RideState) {
        let h = 1e-3, hNanos: Int64 = 1_000_000
        let n0 = max(Int64((time * 1e9).rounded()), hNanos)
        // Three slots: the three lookups cannot evict each other's states.
        let before = states.state(atNanos: n0 - hNanos, of: self).pointee
        let now = states.state(atNanos: n0, of: self).pointee
        let after = states.state(atNanos: n0 + hNanos, of: self).pointee
        let q = now.attitude
        // Kinematic acceleration (ENU, m/s²) and specific force f = a − g⃗, with g⃗ = (0, 0, −g).
        let a = (after.velocity - before.velocity) / (2 * h)
        let f = a + Vector3(0, 0, BikeRide.gravity)
        let fDevice = q.inverseRotate(f)
        // Body rate from the attitude change: q(t−h)⁻¹ · q(t+h) ≈ rotation by ω·2h in the body frame.
        let dq = before.attitude.conjugate * after.attitude
        let dqn = dq.w < 0 ? Quaternion(w: -dq.w, x: -dq.x, y: -dq.y, z: -dq.z) : dq
        let angle = 2 * Self.halfAngle(sine: dqn.vector.norm, cosine: dqn.w)
        let axis = dqn.vector.norm > 0 ? dqn.vector.normalized : .zero
        let omega = axis * (angle / (2 * h))
        let gravityDevice = q.inverseRotate(Vector3(0, 0, -1))
        let truth = MotionTruth(accel: -fDevice / BikeRide.gravity, gyro: omega, mag: q.inverseRotate(fieldENU),
                                gravity: gravityDevice, attitude: q)
        // Before the first millisecond (and for a time between two nanoseconds) the
        // differences are taken at another time than `time`.
        return (truth, Double(n0) / 1e9 == time ? now : state(at: time))
    }
}

extension BikeRide {
    /// atan2(sine, cosine) for the half angle of a unit quaternion (cosine ≥ 0). Between two
    /// states 2 ms apart the angle is tiny (below 0.02 rad up to 10 rad/s), where the series
    /// atan t = t − t³/3 + t⁵/5 − t⁷/7 + t⁹/9 (t = sine/cosine ≤ 0.01) is exact to far below
    /// one ulp (the next term is below t·10⁻²¹): the library's atan2 to within rounding,
    /// at a tenth of its cost; larger angles go to the library.
    @inline(__always)
    static func halfAngle(sine: Double, cosine: Double) -> Double {
        guard cosine > 0, sine <= 0.01 * cosine else { return atan2(sine, cosine) }
        let t = sine / cosine, t2 = t * t
        return t * (1 - t2 * (1.0 / 3 - t2 * (1.0 / 5 - t2 * (1.0 / 7 - t2 * (1.0 / 9)))))
    }
}

/// The last three ride states computed, by their time in nanoseconds: the simulated IMU's
/// memory between ticks (see `BikeRide.truthAndState(at:fieldENU:states:)`). A state is a
/// pure function of its time, so a remembered one is exactly the one that would be computed.
/// Kept in raw memory (read in place, no copies through optionals, no exclusivity checks);
/// used by one thread at a time, like the sensor that owns it.
final class RideStateCache {
    private let keys: UnsafeMutablePointer<Int64>
    private let states: UnsafeMutablePointer<RideState>
    /// The slot the next new state replaces (the oldest), at keys[3].
    private var next: Int { get { Int(keys[3]) } set { keys[3] = Int64(newValue) } }

    init() {
        keys = .allocate(capacity: 4)
        keys.initialize(repeating: .min, count: 3)
        (keys + 3).initialize(to: 0)
        states = .allocate(capacity: 3)
        states.initialize(repeating: RideState(position: .zero, velocity: .zero, speed: 0, courseDegrees: 0, pitch: 0,
                                               lean: 0, attitude: Quaternion(w: 1, x: 0, y: 0, z: 0), roughness: 0),
                          count: 3)
    }

    deinit {
        keys.deallocate()
        states.deinitialize(count: 3)
        states.deallocate()
    }

    /// The state at `n` nanoseconds, computed now if it is not one of the last three.
    func state(atNanos n: Int64, of ride: BikeRide) -> UnsafePointer<RideState> {
        if keys[0] == n { return UnsafePointer(states) }
        if keys[1] == n { return UnsafePointer(states + 1) }
        if keys[2] == n { return UnsafePointer(states + 2) }
        let slot = next
        keys[slot] = n
        states[slot] = ride.state(at: Double(n) / 1e9)
        next = slot == 2 ? 0 : slot + 1
        return UnsafePointer(states + slot)
    }
}
