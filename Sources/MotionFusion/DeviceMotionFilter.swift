import Foundation
import MotionCore
import MotionMath

/// Device motion (`D` rows) by sensor fusion: the `DeviceMotionEstimator` the recorder and
/// `motionlog fuse` use. Applies the calibration, runs the `OrientationFilter`, and reports
/// what CoreMotion's `CMDeviceMotion` reports (see docs/FUSION.md):
/// - rotation rate: the raw gyroscope minus the estimated bias, rad/s;
/// - gravity: the unit down vector in the device frame, in g with the format's sign
///   ((0, 0, −1) face up);
/// - user acceleration: calibrated accelerometer minus gravity, g (≈ 0 at rest);
/// - attitude: device → East-North-Up, and pitch/roll/yaw as `AttitudeAngles` defines.
///
/// With GPS fixes (`observe(_:age:)`), the vehicle's own acceleration is taken out of the
/// inclination (`FusionParameters.groundVelocityAiding`).
///
/// Not thread-safe: one instance per stream of samples, called from one thread.
public final class DeviceMotionFilter: DeviceMotionEstimator {
    public let calibration: FusionCalibration
    public let parameters: FusionParameters
    private var filter: OrientationFilter
    /// Rotation from the magnetic-north frame to the reported frame (declination).
    private let reference: Quaternion

    /// A filter applying `calibration`. Invalid numbers in either argument are a
    /// `FusionSetupError` (they come from a config file).
    public init(calibration: FusionCalibration = .none, parameters: FusionParameters = FusionParameters()) throws(FusionSetupError) {
        if let problem = calibration.problem { throw FusionSetupError(message: problem) }
        if let problem = parameters.problem { throw FusionSetupError(message: problem) }
        self.calibration = calibration
        self.parameters = parameters
        filter = OrientationFilter(parameters: parameters, initialBias: calibration.gyroBias)
        // Yaw from true north = yaw from magnetic north − declination (east positive).
        let d = -(parameters.declination ?? 0)
        reference = Quaternion(w: cos(d / 2), x: 0, y: 0, z: sin(d / 2))
    }

    /// The current state of the filter (bias, rest, disturbance).
    public var estimate: OrientationEstimate { filter.estimate }

    public var info: [String: String] {
        let p = parameters
        var info = [
            "source": "motionlog",
            "algorithm": "motionlog orientation filter (VQF structure: Laidig & Seel 2023): gyro strapdown, "
                + "inclination from low-pass filtered accelerometer in an almost-inertial frame, "
                + "magnetometer heading with disturbance rejection, Kalman-filter gyro bias at rest and in motion; "
                + "with GPS fixes, the vehicle's acceleration (GPS velocity change between fixes) taken out of the inclination",
            "parameters": "accelTimeConstant \(p.accelTimeConstant) s, magTimeConstant \(p.magTimeConstant) s, "
                + "motionBiasEstimation \(p.motionBiasEstimation), restBiasEstimation \(p.restBiasEstimation), "
                + "magDisturbanceRejection \(p.magDisturbanceRejection), groundVelocityAiding \(p.groundVelocityAiding)",
            "frames": "attitude device->ENU; pitch about X, roll about Y, yaw about Z, R = Rz(yaw)Rx(pitch)Ry(roll); "
                + "yaw 0 with the top edge north, counter-clockwise positive (docs/FUSION.md)",
            "calibration": calibration.isIdentity ? "none: raw accelerometer and magnetometer, gyro bias estimated from 0"
                : "applied: the numbers are in recording.calibration",
        ]
        if !p.useMagnetometer {
            info["yawReference"] = "start heading (magnetometer not used): yaw starts at 0"
        } else if let d = p.declination {
            info["yawReference"] = "true north (declination \(d * 180 / Double.pi)° east); yaw starts at 0 until a magnetometer sample arrives"
        } else {
            info["yawReference"] = "magnetic north; yaw starts at 0 until a magnetometer sample arrives"
        }
        return info
    }

    /// The fix's ground velocity (speed along the course over ground, true north) turned
    /// into the filter's frame (magnetic north) for the velocity-aided inclination. A fix
    /// without a speed ends the aid's interval; below 0.3 m/s a missing course counts as
    /// standing still, velocity zero (receivers report no course at rest).
    public func observe(_ fix: LocationFix, age: Double) {
        let standing = fix.speed.isFinite && fix.speed < 0.3
        guard fix.speed.isFinite, fix.course.isFinite || standing else {
            filter.observe(groundVelocity: Vector3(.nan, .nan, .nan), age: age)
            return
        }
        let course = fix.course * Double.pi / 180
        let trueNorth = fix.course.isFinite ? Vector3(fix.speed * sin(course), fix.speed * cos(course), 0) : .zero
        filter.observe(groundVelocity: reference.inverseRotate(trueNorth), age: age)
    }

    public func update(accel: Vector3, gyro: Vector3, mag: Vector3?, dt: Double) -> DeviceMotion {
        let a = calibration.accelerometer(accel)
        let m = mag.map(calibration.magnetometer)
        let state = filter.update(specificForce: -a, gyro: gyro, mag: parameters.useMagnetometer ? m : nil, dt: dt)
        let q = reference * state.attitude
        let gravity = q.inverseRotate(Vector3(0, 0, -1))
        let angles = AttitudeAngles(q)
        return DeviceMotion(rotationRate: gyro - state.gyroBias, userAcceleration: a - gravity, gravity: gravity,
                            attitude: q, pitch: angles.pitch, roll: angles.roll, yaw: angles.yaw)
    }
}

/// Why the fusion cannot be set up (bad calibration or parameters), with what to do.
public struct FusionSetupError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
