import MotionMath

/// Gravity as seen between two GPS fixes: the accelerometer's mean over the interval
/// minus the vehicle's own acceleration over it, which the fixes' velocities give.
///
/// An accelerometer measures gravity plus the vehicle's acceleration; no filter of the IMU
/// alone can tell a sustained acceleration (braking, pulling away, the centripetal
/// acceleration of a coordinated turn, which leans the rider exactly so that the
/// accelerometer still reads "upright") from a tilt. GPS velocity can: over the interval
/// between fixes k−1 and k, the mean specific force in an inertial frame is
/// `g_up + (v_k − v_{k−1}) / (g·Δt)`. This is the GPS velocity aiding of aircraft
/// attitude references (the drift correction of Premerlani & Bizard, "Direction Cosine
/// Matrix IMU: Theory", 2009, which compares the GPS velocity change with the
/// integrated accelerometer), here in VQF's almost-inertial frame I, where the filter
/// already averages the specific force: the integral over exactly the fix interval is
/// compared with exactly that interval's velocity change, so the fixes' delay does not
/// matter (in I gravity does not move; the observation may come a second late).
///
/// Fix times are mapped onto the filter's clock by their `age`: how long before the last
/// sample each fix was taken. Both come from one clock (the recording's When).
struct GroundVelocityAid: Sendable {
    /// Standard gravity, m/s² (the accelerometer's unit).
    static let gravity = FusionParameters.standardGravity
    /// Fixes further apart than this are not differenced (seconds), and the aid lapses this
    /// long after its last observation: the filter then uses every sample again.
    static let maximumInterval = 2.5
    /// Fixes closer than this are not differenced (seconds).
    static let minimumInterval = 0.1
    /// An observation whose length differs from 1 g by more than this is refused: a
    /// velocity glitch (a receiver's jump) or an accelerometer out of range.
    static let lengthTolerance = 0.2

    private var integral = InertialIntegral()
    private var lastFix: (time: Double, velocity: Vector3)?
    private var lastObservation = -Double.infinity

    /// Forgets the fixes and the integral (the filter restarted its frame I).
    mutating func reset() { self = GroundVelocityAid() }

    /// Forgets the last fix (the next one starts a new interval).
    mutating func forgetFix() { lastFix = nil }

    /// Adds one sample of specific force in I (g) that covered the last `dt` seconds.
    mutating func add(_ inertial: Vector3, dt: Double) { integral.add(inertial, dt: dt) }

    /// True while GPS observations steer the inclination (one came within `maximumInterval`,
    /// give or take half a sample: the recorder's and `fuse`'s clocks differ by roundings).
    var active: Bool { integral.time - lastObservation <= Self.maximumInterval + integral.lastPeriod / 2 }

    /// A fix's horizontal ground velocity `velocity` (m/s, in the filter's earth frame),
    /// taken `age` seconds before the last sample. Returns gravity in I (g, about unit
    /// length) over the interval since the previous fix and the interval's length, or nil
    /// when there is no usable interval. `inertialToEarth` turns I into the earth frame.
    mutating func observe(velocity: Vector3, age: Double, inertialToEarth: Quaternion) -> (gravity: Vector3, interval: Double)? {
        // A fix reported more than an interval after its time (or before it) says the two
        // clocks disagree (a system clock that is off): its interval would be the wrong one.
        guard age.isFinite, age >= 0, age <= Self.maximumInterval,
              velocity.x.isFinite, velocity.y.isFinite, velocity.z.isFinite else {
            lastFix = nil
            return nil
        }
        let time = integral.time - age
        let previous = lastFix
        lastFix = (time, velocity)
        guard let previous, time - previous.time >= Self.minimumInterval,
              time - previous.time <= Self.maximumInterval,
              let start = integral.value(at: previous.time), let end = integral.value(at: time) else { return nil }
        let covered = end.time - start.time
        // Samples must cover the interval (a gap in the IMU data leaves no mean of it).
        guard covered >= 0.8 * (time - previous.time) else { return nil }
        let velocityChange = inertialToEarth.inverseRotate((velocity - previous.velocity) / Self.gravity)
        let up = (end.integral - start.integral - velocityChange) / covered
        guard abs(up.norm - 1) <= Self.lengthTolerance else { return nil }
        lastObservation = integral.time
        return (up, covered)
    }
}
