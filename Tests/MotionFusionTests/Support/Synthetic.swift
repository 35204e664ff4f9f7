import Foundation
import MotionMath
import MotionTestSupport

/// Ideal sensor samples for a known attitude, written from the physics (not from the
/// filter's code): accelerometer in the format's sign (−specific force, g), gyroscope
/// rad/s, magnetometer µT.
enum Synthetic {
    /// Earth's field in ENU, µT: 20 µT north, 44 µT down (dip ≈ 65.6°).
    static let field = Vector3(0, 20, -44)

    /// The A row for `attitude` (device → ENU) with a linear acceleration `linear` (g, ENU).
    static func accel(_ attitude: Quaternion, linear: Vector3 = .zero) -> Vector3 {
        // Specific force = acceleration − gravity = linear + (0, 0, 1) g; the A row is its negative.
        -attitude.inverseRotate(linear + Vector3(0, 0, 1))
    }

    static func mag(_ attitude: Quaternion, field: Vector3 = field) -> Vector3 {
        attitude.inverseRotate(field)
    }

    /// Body rate that turns `a` into `b` in `dt` (constant over the step).
    static func rate(from a: Quaternion, to b: Quaternion, dt: Double) -> Vector3 {
        var d = a.conjugate * b
        if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
        let n = d.vector.norm
        guard n > 1e-15 else { return .zero }
        return d.vector / n * (2 * atan2(n, d.w) / dt)
    }

    /// Rotation angle between two attitudes, radians.
    static func angle(_ a: Quaternion, _ b: Quaternion) -> Double { (a * b.conjugate).angle }

    /// Inclination error: the angle between the estimated and the true up direction.
    static func inclination(_ a: Quaternion, _ b: Quaternion) -> Double {
        let ua = a.inverseRotate(Vector3(0, 0, 1)), ub = b.inverseRotate(Vector3(0, 0, 1))
        return acos(max(-1, min(1, ua.dot(ub))))
    }

    /// Heading error: the rotation about the vertical in the error quaternion (BROAD's
    /// definition), radians, absolute.
    static func heading(_ a: Quaternion, _ b: Quaternion) -> Double {
        let e = a * b.conjugate
        return abs(2 * atan(e.z / e.w))
    }

    static let degree = Double.pi / 180
}

/// Reproducible Gaussian noise (Box–Muller over SplitMix64).
struct NoiseSource {
    private var random: SplitMix
    init(seed: UInt64) { random = SplitMix(state: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992.0 }

    mutating func gaussian() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }

    mutating func vector(_ sigma: Double) -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) * sigma }

    /// A uniformly distributed unit vector.
    mutating func direction() -> Vector3 {
        let z = 2 * uniform() - 1, phi = 2 * Double.pi * uniform()
        let r = (1 - z * z).squareRoot()
        return Vector3(r * cos(phi), r * sin(phi), z)
    }
}
