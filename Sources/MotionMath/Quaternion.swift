import Foundation

/// A unit quaternion `w + xi + yj + zk` for rotations.
///
/// Convention used throughout motionlog: a quaternion `q` describing an attitude maps
/// vectors from the DEVICE frame to the WORLD frame (`v_world = q.rotate(v_device)`);
/// the world frame is East-North-Up unless stated otherwise.
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about `axis` (right-handed).
    public init(axis: Vector3, angle: Double) {
        let a = axis.normalized, h = angle / 2, s = sin(h)
        self.init(w: cos(h), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// The rotation by the rotation vector `v` (axis × angle in radians).
    ///
    /// Below half-angles of 1/64 rad (a gyroscope step: 16 rad/s at 1 kHz) it is computed
    /// from the Taylor series of cos(h) and sin(h)/h in h² = |v|²/4 — no square root, sine or
    /// cosine; the first omitted terms (h⁸/8!, h⁸/9!) are below 2e-19, far under one unit in
    /// the last place.
    public init(rotationVector v: Vector3) {
        let h2 = (v.x * v.x + v.y * v.y + v.z * v.z) / 4
        if h2 < 1.0 / 4096 {
            let w = 1 - h2 / 2 * (1 - h2 / 12 * (1 - h2 / 30))
            let sinc = 1 - h2 / 6 * (1 - h2 / 20 * (1 - h2 / 42))   // sin(h)/h
            let s = sinc / 2
            self.init(w: w, x: v.x * s, y: v.y * s, z: v.z * s)
        } else {
            self.init(axis: v, angle: v.norm)
        }
    }

    /// The rotation a proper rotation matrix describes (`q.rotate(v) == m * v`), with
    /// w ≥ 0 (Shepperd's method: built from the largest of the four candidates).
    public init(rotationMatrix m: Matrix3) {
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        let q: Quaternion
        if trace >= m[0, 0] && trace >= m[1, 1] && trace >= m[2, 2] {
            let s = 2 * (1 + trace).squareRoot()
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] >= m[1, 1] && m[0, 0] >= m[2, 2] {
            let s = 2 * (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot()
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] >= m[2, 2] {
            let s = 2 * (1 - m[0, 0] + m[1, 1] - m[2, 2]).squareRoot()
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = 2 * (1 - m[0, 0] - m[1, 1] + m[2, 2]).squareRoot()
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        let n = q.normalized
        self = n.w < 0 ? Quaternion(w: -n.w, x: -n.x, y: -n.y, z: -n.z) : n
    }

    @inlinable public var vector: Vector3 { Vector3(x, y, z) }
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    @inlinable public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v` by this (unit) quaternion.
    @inlinable public func rotate(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Rotates `v` by the inverse of this (unit) quaternion.
    @inlinable public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// The rotation matrix R with `R * v == rotate(v)`.
    public var matrix: Matrix3 {
        Matrix3(rows: Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
                Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
                Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    /// The rotation angle in radians, in [0, π].
    public var angle: Double { 2 * atan2(vector.norm, abs(w)) }

    public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
