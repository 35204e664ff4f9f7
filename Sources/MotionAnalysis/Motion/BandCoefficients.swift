import Foundation

/// The low-pass and high-pass coefficients of the counts band for a step `dt`, which D
/// rows need per row. `exp` is the dearest part of a row at 1 kHz, and at a steady rate
/// the step between two When values takes one or two values (the last bits of the
/// epoch), so the last two steps are kept with their coefficients.
struct BandCoefficients {
    private var steps = (Double.nan, Double.nan)   // NaN matches nothing
    private var coefficients = ((0.0, 1.0), (0.0, 1.0))

    /// (1 − e^(−2π·2.5·dt), rc / (rc + dt)) with rc = 1 / (2π·0.25); (0, 1) when dt ≤ 0.
    @inline(__always)
    mutating func forStep(_ dt: Double) -> (a1: Double, alpha: Double) {
        if dt == steps.0 { return coefficients.0 }
        if dt == steps.1 { return coefficients.1 }
        let a1 = dt > 0 ? 1 - exp(-2 * Double.pi * 2.5 * dt) : 0
        let rc = 1 / (2 * Double.pi * 0.25)
        let alpha = dt > 0 ? rc / (rc + dt) : 1
        steps = (dt, steps.0)
        coefficients = ((a1, alpha), coefficients.0)
        return (a1, alpha)
    }
}
