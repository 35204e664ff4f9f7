import Foundation
import MotionMath

/// The filter's heading correction δ (radians, in (−π, π]) together with its rotation about
/// the vertical, Rz(δ): the heading moves by a small step at nearly every magnetometer
/// sample, and a small step turns the rotation by a series (`Quaternion(rotationVector:)`)
/// instead of a sine and a cosine. Every 4 096 steps, and after any large one, the
/// rotation is recomputed from δ, so rounding cannot accumulate.
struct HeadingRotation: Sendable {
    /// δ, radians in (−π, π].
    private(set) var angle = 0.0
    /// Rz(δ): w = cos(δ/2), z = sin(δ/2).
    private(set) var rotation = Quaternion.identity
    private var steps = 0
    /// Steps below this (radians) are applied by the series.
    static let smallStep = 1.0 / 32

    /// Sets δ to `newAngle` wrapped into (−π, π].
    mutating func set(_ newAngle: Double) {
        let a = Self.wrap(newAngle)
        let step = a - angle
        angle = a
        steps += 1
        if abs(step) < Self.smallStep && steps < 4096 {
            let r = Quaternion(rotationVector: Vector3(0, 0, step))
            // Both rotations are about z: the product has only w and z.
            var w = r.w * rotation.w - r.z * rotation.z
            var z = r.w * rotation.z + r.z * rotation.w
            let n = (3 - (w * w + z * z)) / 2   // one Newton step back to unit length
            w *= n; z *= n
            rotation = Quaternion(w: w, x: 0, y: 0, z: z)
        } else {
            steps = 0
            rotation = Quaternion(w: cos(a / 2), x: 0, y: 0, z: sin(a / 2))
        }
    }

    /// The angle in (−π, π] (one subtraction for the angles the filter produces, which are
    /// within ±3π; the remainder otherwise — the same value either way).
    static func wrap(_ a: Double) -> Double {
        if a > -Double.pi && a <= Double.pi { return a }
        if a > -3 * Double.pi && a <= 3 * Double.pi { return a > Double.pi ? a - 2 * Double.pi : a + 2 * Double.pi }
        var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
        if x > Double.pi { x -= 2 * Double.pi } else if x <= -Double.pi { x += 2 * Double.pi }
        return x
    }
}
