import Foundation
import MotionCore
import MotionMath

/// What the orientation filter knows after one sample.
public struct OrientationEstimate: Sendable, Equatable {
    /// Attitude, device → East-North-Up (yaw reference: see `AttitudeAngles`).
    public var attitude: Quaternion
    /// The gyroscope bias estimate, rad/s.
    public var gyroBias: Vector3
    /// True while the device is detected at rest.
    public var atRest: Bool
    /// True when the last accelerometer sample differed from gravity by more than the
    /// rejection threshold (its excess was clipped).
    public var accelerationRejected: Bool
    /// True while the magnetic field is regarded as disturbed (or no magnetometer is used).
    public var magneticDisturbance: Bool
    /// True once a magnetometer sample has set the heading.
    public var headingFromMagnetometer: Bool
    /// True while GPS velocity steers the inclination (`FusionParameters.groundVelocityAiding`).
    public var groundVelocityAided: Bool = false
}

/// Attitude from a gyroscope, an accelerometer and (optionally) a magnetometer: a
/// re-implementation of the structure of VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU
/// orientation estimation with bias estimation and magnetic disturbance rejection",
/// Information Fusion 91, 2023).
///
/// The attitude is a product of three parts, `q = Rz(δ) · q_inc · q_gyr`:
/// - `q_gyr` integrates the bias-corrected gyroscope (device → an almost-inertial frame I);
/// - `q_inc` corrects the inclination: the specific force, rotated into I, is low-pass
///   filtered there (second-order Butterworth, `accelTimeConstant`) — in I, gravity is
///   nearly constant while accelerations of the device average out — and `q_inc` is the
///   rotation that turns the filtered vector exactly upright;
/// - `δ` corrects the heading towards the horizontal magnetic field, as a first-order
///   low-pass with `magTimeConstant`, paused or slowed while the field is disturbed.
///
/// Start-up: the accelerometer filter averages its first samples and the heading gain
/// starts at 1 and falls as 1/n, so the very first attitude is the one the first
/// accelerometer and magnetometer samples define, refined by averaging, never converging
/// from an arbitrary guess. Without a magnetometer, yaw starts at 0.
///
/// With GPS fixes (`observe(groundVelocity:age:)`), the inclination is steered by the
/// specific force's mean over each fix interval minus the vehicle's velocity change over it
/// (`GroundVelocityAid`) instead of by every sample: sustained accelerations of a vehicle
/// (braking, leaning turns) then no longer tilt the estimate.
///
/// The gyroscope bias is estimated by a Kalman filter (`GyroBiasEstimator`) at rest and in
/// motion. Units: specific force in g (+1 up at rest), rates in rad/s, field in µT (any
/// unit works: only directions, ratios and the dip angle are used).
public struct OrientationFilter: Sendable {
    public let parameters: FusionParameters
    private var gyroQuaternion = Quaternion.identity
    private var inclinationQuaternion = Quaternion.identity
    private var heading = HeadingRotation()
    /// `1 − exp(−dt/magTimeConstant)` for the last magnetometer period (it rarely changes).
    private var headingGain: (dt: Double, gain: Double) = (0, 0)
    private var accelLowPass: ButterworthLowPass<Vector3>
    private var rotationLowPass: ButterworthLowPass<Matrix3>
    private var biasLowPass: ButterworthLowPass<Vector3>
    private var rest: RestDetector
    private var bias: GyroBiasEstimator
    private var magnetic: MagneticDisturbanceDetector
    private var ground = GroundVelocityAid()
    private var headingInitialGain = 1.0
    private var sinceMagnetometer = 0.0
    private var started = false
    /// True when the last accelerometer sample was clipped by the acceleration rejection.
    public private(set) var accelClipped = false
    private(set) public var headingFromMagnetometer = false
    /// The calibrated bias: subtracted first; the filter estimates what remains (within
    /// `biasClip`), so a large but calibrated bias is not clipped.
    private let baselineBias: Vector3

    /// A filter with `parameters`, starting its bias estimate at `initialBias` (rad/s).
    public init(parameters: FusionParameters = FusionParameters(), initialBias: Vector3 = .zero) {
        self.parameters = parameters
        baselineBias = initialBias
        accelLowPass = ButterworthLowPass(tau: parameters.accelTimeConstant)
        rotationLowPass = ButterworthLowPass(tau: parameters.accelTimeConstant)
        biasLowPass = ButterworthLowPass(tau: parameters.accelTimeConstant)
        rest = RestDetector(parameters)
        bias = GyroBiasEstimator(parameters, initialBias: .zero)
        magnetic = MagneticDisturbanceDetector(parameters)
    }

    /// The attitude, device → East-North-Up.
    public var attitude: Quaternion {
        heading.rotation * inclinationQuaternion * gyroQuaternion
    }

    /// The current estimate.
    public var estimate: OrientationEstimate {
        OrientationEstimate(attitude: attitude, gyroBias: gyroBias, atRest: rest.atRest,
                            accelerationRejected: accelClipped, magneticDisturbance: magnetic.disturbed || !headingFromMagnetometer,
                            headingFromMagnetometer: headingFromMagnetometer, groundVelocityAided: ground.active)
    }

    /// The gyroscope bias estimate, rad/s.
    public var gyroBias: Vector3 { baselineBias + bias.bias }

    /// Processes one sample: `specificForce` in g (+Z up when face up at rest), `gyro` rad/s
    /// (raw, bias included), `mag` µT or nil, `dt` seconds since the previous sample.
    /// Samples with a non-finite or impossible value (`SensorLimit`), or a non-positive `dt`
    /// after the first, leave the state unchanged. A `dt` above `maxGap` restarts the attitude.
    /// Returns the attitude and the bias estimate after the sample, read in place (a caller
    /// that keeps the filter in a class would copy the whole filter for each property read).
    @discardableResult
    public mutating func update(specificForce f: Vector3, gyro rawGyro: Vector3, mag: Vector3?, dt: Double)
        -> (attitude: Quaternion, gyroBias: Vector3) {
        step(specificForce: f, gyro: rawGyro, mag: mag, dt: dt)
        return (attitude, gyroBias)
    }

    private mutating func step(specificForce f: Vector3, gyro rawGyro: Vector3, mag: Vector3?, dt: Double) {
        guard isFinite(f), isFinite(rawGyro), f.norm > 0 else { return }
        let gyro = rawGyro - baselineBias
        let m = mag.flatMap { isFinite($0) && $0.norm > 0 ? $0 : nil }
        if !started || dt > parameters.maxGap {
            start(specificForce: f, gyro: gyro, mag: m)
            return
        }
        guard dt > 0, dt.isFinite else { return }

        // 1. Rest detection and strapdown integration of the bias-corrected rate.
        rest.update(gyro: gyro, accel: f, dt: dt)
        let rate = gyro - bias.bias
        gyroQuaternion = (gyroQuaternion * Quaternion(rotationVector: rate * dt)).normalized

        // 2. Inclination: while GPS fixes steer it (`observe(groundVelocity:age:)`), the
        //    specific force is only integrated here; otherwise each sample is filtered.
        let inertial = gyroQuaternion.rotate(f)
        accelClipped = false
        if parameters.groundVelocityAiding { ground.add(inertial, dt: dt) }
        if !ground.active {
            let upEstimate = correctInclination(filtering: inertial, dt: dt)
            // 3. Gyroscope bias.
            estimateBias(upEstimate: upEstimate, dt: dt)
        }

        // 4. Heading from the magnetometer.
        sinceMagnetometer += dt
        if let m { correctHeading(mag: m, rotationRate: rate.norm) }
    }

    /// A GPS fix's horizontal ground velocity (m/s, East-North-Up in the filter's frame:
    /// magnetic north), taken `age` seconds before the last sample given to `update`. Two
    /// fixes give the vehicle's acceleration between them; the specific force's mean over
    /// that interval without it is gravity, which then steers the inclination (see
    /// `GroundVelocityAid`). Ignored before the heading is known from the magnetometer (GPS
    /// directions cannot be turned into the filter's frame without it) and when
    /// `groundVelocityAiding` is off. A non-finite velocity ends the interval.
    public mutating func observe(groundVelocity velocity: Vector3, age: Double) {
        guard parameters.groundVelocityAiding, started else { return }
        guard headingFromMagnetometer else { ground.forgetFix(); return }
        let inertialToEarth = heading.rotation * inclinationQuaternion
        let wasActive = ground.active
        guard let observation = ground.observe(velocity: velocity, age: age, inertialToEarth: inertialToEarth) else { return }
        // When the aid (re)starts, the low-pass restarts from the observations: what it holds
        // then is the raw samples' mean, accelerations included.
        if !wasActive { accelLowPass.reset() }
        let filtered = accelLowPass.filter(observation.gravity, dt: observation.interval)
        let upEstimate = inclinationQuaternion.rotate(filtered).normalized
        correctInclination(upEstimate)
        estimateBias(upEstimate: upEstimate, dt: observation.interval)
    }

    /// One sample's inclination correction: the specific force in I (`inertial`), with the
    /// part that differs from the estimated gravity by more than the threshold clipped off,
    /// through the low-pass; returns the filtered up direction that was applied.
    private mutating func correctInclination(filtering sample: Vector3, dt: Double) -> Vector3 {
        var inertial = sample
        if parameters.accelRejectionThreshold > 0 {
            let up = inclinationQuaternion.inverseRotate(Vector3(0, 0, 1))
            let deviation = inertial - up
            let n = deviation.norm
            if n > parameters.accelRejectionThreshold {
                inertial = up + deviation * (parameters.accelRejectionThreshold / n)
                accelClipped = true
            }
        }
        let filtered = accelLowPass.filter(inertial, dt: dt)
        let upEstimate = inclinationQuaternion.rotate(filtered).normalized
        correctInclination(upEstimate)
        return upEstimate
    }

    /// Sets the attitude from one sample: upright from the specific force; heading from the
    /// magnetometer or, without one, yaw 0 (after a gap: the yaw before the gap).
    private mutating func start(specificForce f: Vector3, gyro: Vector3, mag: Vector3?) {
        let yawBefore = started ? AttitudeAngles(attitude).yaw : 0
        gyroQuaternion = .identity
        inclinationQuaternion = .identity
        accelLowPass.reset()
        rotationLowPass.reset()
        biasLowPass.reset()
        ground.reset()
        rest = RestDetector(parameters)
        // The first sample defines the inclination (the filter's output is the sample).
        let up = accelLowPass.filter(f, dt: 0).normalized
        correctInclination(up)
        heading.set(yawBefore - AttitudeAngles(inclinationQuaternion).yaw)
        headingInitialGain = 1
        sinceMagnetometer = 0
        started = true
        if let mag { correctHeading(mag: mag, rotationRate: (gyro - bias.bias).norm) }
    }

    /// Rotates the inclination part so that `up` (unit, earth frame) becomes (0, 0, 1):
    /// the rotation about the horizontal axis up × ẑ by the angle between them.
    private mutating func correctInclination(_ up: Vector3) {
        let c = ((1 + up.z) / 2).squareRoot()
        let correction: Quaternion
        if c > 1e-6 {
            correction = Quaternion(w: c, x: up.y / (2 * c), y: -up.x / (2 * c), z: 0)
        } else {
            // Upside down: any horizontal axis will do.
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        inclinationQuaternion = (correction * inclinationQuaternion).normalized
    }

    private mutating func estimateBias(upEstimate up: Vector3, dt: Double) {
        guard parameters.motionBiasEstimation || parameters.restBiasEstimation else { return }
        bias.predict(dt: dt)
        let r = (inclinationQuaternion * gyroQuaternion).matrix
        let rotated = r * bias.bias
        let rLow = rotationLowPass.filter(r, dt: dt)
        let rotatedLow = biasLowPass.filter(rotated, dt: dt)
        if rest.atRest && parameters.restBiasEstimation {
            bias.correctAtRest(filteredGyro: rest.filteredGyro, dt: dt)
        } else if parameters.motionBiasEstimation {
            // The inclination correction just applied, as an earth-frame rate: for a small
            // correction the rotation vector is (up.y, −up.x, 0). The drift it cancels is
            // the residual bias rotated into the earth frame (filtered like the correction).
            let correctionRate = Vector3(up.y, -up.x, 0) / dt
            let measured = rotatedLow - correctionRate
            bias.correctInMotion(rotation: rLow, measured: measured, dt: dt)
        }
    }

    private mutating func correctHeading(mag: Vector3, rotationRate: Double) {
        guard parameters.useMagnetometer else { return }
        let dt = sinceMagnetometer
        sinceMagnetometer = 0
        let field = (inclinationQuaternion * gyroQuaternion).rotate(mag)
        guard field.x * field.x + field.y * field.y > 0 else { return }
        var factor = 1.0
        if parameters.magDisturbanceRejection {
            factor = magnetic.update(fieldInEarth: field, rotationRate: rotationRate, dt: dt)
        }
        // The heading that turns the horizontal field towards north (+Y).
        let measured = atan2(field.x, field.y)
        let error = HeadingRotation.wrap(measured - heading.angle)
        if dt != headingGain.dt { headingGain = (dt, 1 - exp(-dt / parameters.magTimeConstant)) }
        var gain = dt > 0 ? headingGain.gain * factor : 0
        if headingInitialGain > 0 {
            // Start-up: average the first samples (gains 1, 1/2, 1/3, ...) for one time constant.
            gain = max(gain, headingInitialGain)
            headingInitialGain = headingInitialGain / (headingInitialGain + 1)
            if headingInitialGain * parameters.magTimeConstant < dt { headingInitialGain = 0 }
        }
        heading.set(heading.angle + gain * error)
        headingFromMagnetometer = true
    }

    /// Finite and possible (`SensorLimit`): a value no sensor gives is skipped like a NaN.
    private func isFinite(_ v: Vector3) -> Bool {
        SensorLimit.isPossible(v.x) && SensorLimit.isPossible(v.y) && SensorLimit.isPossible(v.z)
    }
}
