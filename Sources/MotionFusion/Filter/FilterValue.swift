import MotionMath

/// A value a low-pass filter can smooth: a vector space (sum and scalar product).
/// Method names are prefixed so they never clash with operators MotionMath may add.
protocol FilterValue: Sendable {
    static var filterZero: Self { get }
    func filterAdding(_ other: Self) -> Self
    func filterScaled(_ s: Double) -> Self
}

extension Double: FilterValue {
    static var filterZero: Double { 0 }
    func filterAdding(_ other: Double) -> Double { self + other }
    func filterScaled(_ s: Double) -> Double { self * s }
}

extension Vector3: FilterValue {
    static var filterZero: Vector3 { .zero }
    func filterAdding(_ other: Vector3) -> Vector3 { self + other }
    func filterScaled(_ s: Double) -> Vector3 { self * s }
}

extension Matrix3: FilterValue {
    static var filterZero: Matrix3 { Matrix3(rows: .zero, .zero, .zero) }
    func filterAdding(_ other: Matrix3) -> Matrix3 {
        Matrix3(rows: rows.0 + other.rows.0, rows.1 + other.rows.1, rows.2 + other.rows.2)
    }
    func filterScaled(_ s: Double) -> Matrix3 { self * s }
}
