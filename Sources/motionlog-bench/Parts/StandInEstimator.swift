import Foundation
import MotionCore
import MotionMath

/// A small attitude filter that lets the benchmarks record `D` rows with a realistic amount
/// of arithmetic per tick while MotionFusion's estimator is not yet on this branch.
/// It is a stand-in for cost, not the fusion deliverable: `BenchParts.makeEstimator()` is
/// the one place to switch to MotionFusion's estimator once it lands.
///
/// Method: the attitude quaternion (device → world) integrates the gyro; the measured
/// gravity direction pulls the predicted one back with a proportional-integral correction
/// (the integral term is the gyro bias estimate).
final class StandInEstimator: DeviceMotionEstimator {
    private var attitude = Quaternion.identity
    private var bias = Vector3.zero
    private let proportionalGain = 1.0
    private let integralGain = 0.02

    var info: [String: String] {
        ["algorithm": "bench stand-in: gyro integration with PI gravity correction",
         "note": "benchmark cost stand-in until MotionFusion's estimator is on main"]
    }

    func update(accel: Vector3, gyro: Vector3, mag: Vector3?, dt: Double) -> DeviceMotion {
        // Gravity in the device frame as the format signs it: face up reads (0, 0, −1).
        let predicted = attitude.inverseRotate(Vector3(0, 0, -1))
        var correction = Vector3.zero
        let length = accel.norm
        if length > 0.5 && length < 1.5 {
            // Rotating the prediction about (measured × predicted) turns it toward the measurement.
            correction = (accel / length).cross(predicted)
            bias -= correction * (integralGain * dt)
        }
        let rate = gyro - bias
        let omega = rate + correction * proportionalGain
        attitude = (attitude * Quaternion(rotationVector: omega * dt)).normalized
        let gravity = attitude.inverseRotate(Vector3(0, 0, -1))
        let q = attitude
        let pitch = asin(max(-1, min(1, 2 * (q.w * q.x + q.y * q.z))))
        let roll = atan2(2 * (q.w * q.y - q.x * q.z), 1 - 2 * (q.x * q.x + q.y * q.y))
        let yaw = atan2(2 * (q.w * q.z - q.x * q.y), 1 - 2 * (q.x * q.x + q.z * q.z))
        return DeviceMotion(rotationRate: rate, userAcceleration: accel - gravity, gravity: gravity,
                            attitude: attitude, pitch: pitch, roll: roll, yaw: yaw)
    }
}
