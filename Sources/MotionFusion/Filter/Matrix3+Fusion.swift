import MotionMath

extension Matrix3 {
    /// Element-wise sum.
    func fusionPlus(_ o: Matrix3) -> Matrix3 { filterAdding(o) }
    /// Element-wise difference.
    func fusionMinus(_ o: Matrix3) -> Matrix3 { filterAdding(o * -1) }
    /// (M + Mᵀ) / 2: removes the asymmetry rounding adds to a covariance.
    var fusionSymmetrized: Matrix3 { fusionPlus(transposed) * 0.5 }
}
