/// A 3×3 matrix stored by rows: rotations, mount orientations, soft-iron corrections.
public struct Matrix3: Hashable, Sendable {
    public var rows: (Vector3, Vector3, Vector3)

    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) { rows = (r0, r1, r2) }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(rows: Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    public subscript(r: Int, c: Int) -> Double {
        get { r == 0 ? rows.0[c] : (r == 1 ? rows.1[c] : rows.2[c]) }
        set {
            switch r {
            case 0: rows.0[c] = newValue
            case 1: rows.1[c] = newValue
            default: rows.2[c] = newValue
            }
        }
    }

    @inlinable public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.rows.0.dot(v), m.rows.1.dot(v), m.rows.2.dot(v))
    }

    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(rows: Vector3(a.rows.0.dot(bt.rows.0), a.rows.0.dot(bt.rows.1), a.rows.0.dot(bt.rows.2)),
                       Vector3(a.rows.1.dot(bt.rows.0), a.rows.1.dot(bt.rows.1), a.rows.1.dot(bt.rows.2)),
                       Vector3(a.rows.2.dot(bt.rows.0), a.rows.2.dot(bt.rows.1), a.rows.2.dot(bt.rows.2)))
    }

    @inlinable public var transposed: Matrix3 {
        Matrix3(rows: Vector3(rows.0.x, rows.1.x, rows.2.x),
                Vector3(rows.0.y, rows.1.y, rows.2.y),
                Vector3(rows.0.z, rows.1.z, rows.2.z))
    }

    public var determinant: Double { rows.0.dot(rows.1.cross(rows.2)) }

    /// The inverse, or nil when the matrix is singular.
    public var inverse: Matrix3? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let c0 = rows.1.cross(rows.2), c1 = rows.2.cross(rows.0), c2 = rows.0.cross(rows.1)
        return Matrix3(rows: c0, c1, c2).transposed * (1 / det)
    }

    public static func * (m: Matrix3, s: Double) -> Matrix3 {
        Matrix3(rows: m.rows.0 * s, m.rows.1 * s, m.rows.2 * s)
    }

    public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    public func hash(into h: inout Hasher) { h.combine(rows.0); h.combine(rows.1); h.combine(rows.2) }
}
