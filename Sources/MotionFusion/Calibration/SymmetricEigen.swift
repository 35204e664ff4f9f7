import Foundation
import MotionMath

/// Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations:
/// `m = vectors · diag(values) · vectorsᵀ`, the columns of `vectors` orthonormal.
struct SymmetricEigen3 {
    var values: Vector3
    /// Eigenvectors as columns.
    var vectors: Matrix3

    init(_ m: Matrix3) {
        var a = [[m[0, 0], m[0, 1], m[0, 2]], [m[1, 0], m[1, 1], m[1, 2]], [m[2, 0], m[2, 1], m[2, 2]]]
        var v = [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
        for _ in 0..<50 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            let diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]
            if off <= 1e-30 * max(diag, 1e-300) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                // The rotation angle that zeroes a[p][q].
                let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {
                    let akp = a[k][p], akq = a[k][q]
                    a[k][p] = c * akp - s * akq
                    a[k][q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p][k], aqk = a[q][k]
                    a[p][k] = c * apk - s * aqk
                    a[q][k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k][p], vkq = v[k][q]
                    v[k][p] = c * vkp - s * vkq
                    v[k][q] = s * vkp + c * vkq
                }
            }
        }
        values = Vector3(a[0][0], a[1][1], a[2][2])
        vectors = Matrix3(rows: Vector3(v[0][0], v[0][1], v[0][2]), Vector3(v[1][0], v[1][1], v[1][2]),
                          Vector3(v[2][0], v[2][1], v[2][2]))
    }

    /// `vectors · diag(f(values)) · vectorsᵀ`.
    func map(_ f: (Double) -> Double) -> Matrix3 {
        let d = Matrix3.diagonal(Vector3(f(values.x), f(values.y), f(values.z)))
        return vectors * d * vectors.transposed
    }
}
