/// Solves a small dense linear system `A·x = b` (row-major `n×n`) by Gaussian elimination
/// with partial pivoting. Returns nil when the matrix is singular or badly conditioned
/// (a pivot below `tolerance` times the largest entry).
func solveLinearSystem(_ a: [Double], _ b: [Double], n: Int, tolerance: Double = 1e-12) -> [Double]? {
    guard a.count == n * n, b.count == n, n > 0 else { return nil }
    var m = a, rhs = b
    let scale = m.map(abs).max() ?? 0
    guard scale > 0, scale.isFinite else { return nil }
    for col in 0..<n {
        var pivot = col
        for r in (col + 1)..<max(col + 1, n) where abs(m[r * n + col]) > abs(m[pivot * n + col]) { pivot = r }
        guard abs(m[pivot * n + col]) > tolerance * scale else { return nil }
        if pivot != col {
            for c in 0..<n { m.swapAt(col * n + c, pivot * n + c) }
            rhs.swapAt(col, pivot)
        }
        let p = m[col * n + col]
        for r in (col + 1)..<max(col + 1, n) {
            let f = m[r * n + col] / p
            if f == 0 { continue }
            for c in col..<n { m[r * n + c] -= f * m[col * n + c] }
            rhs[r] -= f * rhs[col]
        }
    }
    var x = [Double](repeating: 0, count: n)
    for r in stride(from: n - 1, through: 0, by: -1) {
        var s = rhs[r]
        for c in (r + 1)..<max(r + 1, n) { s -= m[r * n + c] * x[c] }
        x[r] = s / m[r * n + r]
    }
    return x.allSatisfy(\.isFinite) ? x : nil
}
