import Foundation
import MotionMath

/// Pitch, roll and yaw as CoreMotion's `CMAttitude` reports them, in radians.
///
/// Frames: the device frame is X right, Y towards the top edge, Z out of the screen. The
/// reference frame is East-North-Up (yaw referenced to magnetic north, to true north with
/// a declination, or to the start heading without a magnetometer). The attitude rotation
/// (device → reference) is
///
///     R = Rz(yaw) · Rx(pitch) · Ry(roll)
///
/// i.e. intrinsic rotations first about Z (yaw), then the new X (pitch), then the new Y
/// (roll). All angles are right-handed:
/// - pitch ∈ [−π/2, π/2], about the device X axis: positive when the top edge rises
///   (upright in portrait: pitch = +π/2);
/// - roll ∈ (−π, π], about the device Y axis: positive when the right edge goes down
///   (the screen turns to the right); face down gives ±π;
/// - yaw ∈ (−π, π], about the vertical: 0 when the top edge (the Y axis projected on the
///   horizontal) points north, growing counter-clockwise seen from above: +π/2 when the
///   top points west. The compass heading of the top edge is −yaw.
///
/// This is how CoreMotion behaves with `xMagneticNorthZVertical` (yaw 0 with the top edge
/// towards north, 90° with the right edge towards north).
///
/// At pitch = ±π/2 (gimbal lock) only yaw ± roll is defined: roll is reported as 0 there.
public struct AttitudeAngles: Sendable, Equatable, CustomStringConvertible {
    public var pitch: Double
    public var roll: Double
    public var yaw: Double

    public init(pitch: Double, roll: Double, yaw: Double) {
        self.pitch = pitch; self.roll = roll; self.yaw = yaw
    }

    /// The angles of an attitude quaternion (device → East-North-Up).
    public init(_ q: Quaternion) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        // Elements of R = Rz(ψ)Rx(θ)Ry(φ):
        //   R21 = sin θ, R20 = −cos θ sin φ, R22 = cos θ cos φ, R01 = −sin ψ cos θ, R11 = cos ψ cos θ.
        let r21 = 2 * (y * z + w * x)
        let r20 = 2 * (x * z - w * y)
        let r22 = 1 - 2 * (x * x + y * y)
        let r01 = 2 * (x * y - w * z)
        let r11 = 1 - 2 * (x * x + z * z)
        let sinPitch = max(-1, min(1, r21))
        pitch = asin(sinPitch)
        if abs(sinPitch) > 1 - 1e-12 {
            // Gimbal lock: R00 = cos(ψ ± φ), R10 = sin(ψ ± φ); report roll = 0.
            let r00 = 1 - 2 * (y * y + z * z)
            let r10 = 2 * (x * y + w * z)
            roll = 0
            yaw = atan2(r10, r00)
        } else {
            roll = atan2(-r20, r22)
            yaw = atan2(-r01, r11)
        }
    }

    /// The attitude quaternion (device → reference) these angles describe.
    public var quaternion: Quaternion {
        let qz = Quaternion(w: cos(yaw / 2), x: 0, y: 0, z: sin(yaw / 2))
        let qx = Quaternion(w: cos(pitch / 2), x: sin(pitch / 2), y: 0, z: 0)
        let qy = Quaternion(w: cos(roll / 2), x: 0, y: sin(roll / 2), z: 0)
        return qz * qx * qy
    }

    public var description: String {
        let d = 180 / Double.pi
        return "(pitch \(pitch * d)°, roll \(roll * d)°, yaw \(yaw * d)°)"
    }
}
