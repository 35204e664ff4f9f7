import Foundation
import MotionMath

/// An ellipsoid `(x − center)ᵀ · shape · (x − center) = 1` fitted to points by linear least
/// squares on the general quadric
/// `a x² + b y² + c z² + 2f yz + 2g xz + 2h xy + 2p x + 2q y + 2r z = 1`
/// (points first centred on their mean and scaled to unit RMS radius, so the origin is
/// inside and the system is well conditioned).
///
/// For a magnetometer, the raw samples of a constant field seen in every orientation lie
/// on such an ellipsoid: `raw = S·field + hardIron`. The centre is the hard-iron offset;
/// the symmetric square root of `shape` maps the ellipsoid back onto a sphere.
public struct EllipsoidFit: Sendable, Equatable {
    /// The centre (hard-iron offset), in the input's units.
    public var center: Vector3
    /// The symmetric positive definite shape matrix.
    public var shape: Matrix3
    /// Semi-axis lengths, smallest first.
    public var radii: Vector3

    /// Fits an ellipsoid to `points`; nil when there are fewer than 9 distinct directions'
    /// worth of points, the system is singular, or the quadric is not an ellipsoid.
    public static func fit(_ points: [Vector3]) -> EllipsoidFit? {
        guard points.count >= 9 else { return nil }
        var mean = Vector3.zero
        for p in points { mean += p }
        mean = mean / Double(points.count)
        var sumSquares = 0.0
        for p in points { let d = p - mean; sumSquares += d.dot(d) }
        let scale = (sumSquares / Double(points.count)).squareRoot()
        guard scale > 0, scale.isFinite else { return nil }

        // Normal equations DᵀD·v = Dᵀ·1 of the quadric's nine coefficients.
        var ata = [Double](repeating: 0, count: 81)
        var atb = [Double](repeating: 0, count: 9)
        var row = [Double](repeating: 0, count: 9)
        for p in points {
            let u = (p - mean) / scale
            row[0] = u.x * u.x; row[1] = u.y * u.y; row[2] = u.z * u.z
            row[3] = 2 * u.y * u.z; row[4] = 2 * u.x * u.z; row[5] = 2 * u.x * u.y
            row[6] = 2 * u.x; row[7] = 2 * u.y; row[8] = 2 * u.z
            for i in 0..<9 {
                atb[i] += row[i]
                for j in i..<9 { ata[i * 9 + j] += row[i] * row[j] }
            }
        }
        for i in 0..<9 { for j in 0..<i { ata[i * 9 + j] = ata[j * 9 + i] } }
        guard let v = solveLinearSystem(ata, atb, n: 9, tolerance: 1e-14) else { return nil }

        let a = Matrix3(rows: Vector3(v[0], v[5], v[4]), Vector3(v[5], v[1], v[3]), Vector3(v[4], v[3], v[2]))
        let b = Vector3(v[6], v[7], v[8])
        guard let aInverse = a.inverse else { return nil }
        // xᵀAx + 2bᵀx = 1  ⇔  (x − c)ᵀA(x − c) = 1 + cᵀAc  with c = −A⁻¹b.
        let c = (aInverse * b) * -1
        let k = 1 + c.dot(a * c)
        guard k > 0, k.isFinite else { return nil }
        let unitShape = a * (1 / k)
        let eigen = SymmetricEigen3(unitShape)
        let e = eigen.values
        guard e.x > 0, e.y > 0, e.z > 0 else { return nil }
        // Back to input units: x = mean + scale·u.
        let shape = unitShape * (1 / (scale * scale))
        let r = [e.x, e.y, e.z].map { scale / $0.squareRoot() }.sorted()
        return EllipsoidFit(center: mean + c * scale, shape: shape.symmetrized,
                            radii: Vector3(r[0], r[1], r[2]))
    }

    /// The symmetric matrix `W` with `|W·(x − center)| = radius` on the ellipsoid:
    /// `W = radius · shape^½`. With `radius` nil, the geometric mean of the semi-axes (so
    /// `det W = 1`: the correction changes the shape, not the average size).
    public func sphereCorrection(radius: Double? = nil) -> Matrix3 {
        let r = radius ?? Foundation.cbrt(radii.x * radii.y * radii.z)
        return SymmetricEigen3(shape).map { $0.squareRoot() } * r
    }
}

extension Matrix3 {
    /// (M + Mᵀ) / 2.
    var symmetrized: Matrix3 { fusionSymmetrized }
}
