import Foundation

/// A second-order Butterworth low-pass filter with time constant `tau` (cut-off frequency
/// f_c = √2 / (2π·tau)), discretised with the bilinear transform for the current sample
/// period, in transposed direct form II.
///
/// Start-up: for the first `tau` seconds the output is the running mean of the inputs; then
/// the filter state is set to the steady state of that mean. So the first output equals the
/// first input and the filter never has to converge from zero.
struct ButterworthLowPass<Value: FilterValue>: Sendable {
    let tau: Double
    private var b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var coefficientPeriod = -1.0
    private var s0 = Value.filterZero, s1 = Value.filterZero
    private var warmupSum = Value.filterZero
    private var warmupCount = 0
    private var warmupTime = 0.0
    private var warmedUp = false
    private(set) var output = Value.filterZero
    /// False until the first sample.
    private(set) var started = false

    init(tau: Double) { self.tau = tau }

    /// Filters one sample taken `dt` seconds after the previous one.
    @discardableResult
    mutating func filter(_ x: Value, dt: Double) -> Value {
        started = true
        // The warm-up ends with the sample that brings its time to `tau`, give or take half a
        // sample: periods that add up to `tau` (three 1 s GPS intervals for 3 s, 300 samples
        // of 10 ms) end it whether their sum rounds to 2.9999999 or 3.0000001 — the recorder
        // (exact periods) and `fuse` (When differences) then build the same filter.
        if !warmedUp {
            warmupSum = warmupSum.filterAdding(x)
            warmupCount += 1
            warmupTime += dt
            output = warmupSum.filterScaled(1 / Double(warmupCount))
            if warmupTime >= tau - dt / 2 {
                warmedUp = true
                _ = updateCoefficients(dt)
                // Steady state for a constant input m: s1 = (b2 − a2)·m, s0 = (b1 + b2 − a1 − a2)·m.
                s1 = output.filterScaled(b2 - a2)
                s0 = output.filterScaled(b1 + b2 - a1 - a2)
            }
            return output
        }
        if updateCoefficients(dt) {
            // New coefficients: restart from the steady state of the last output.
            s1 = output.filterScaled(b2 - a2)
            s0 = output.filterScaled(b1 + b2 - a1 - a2)
        }
        let y = x.filterScaled(b0).filterAdding(s0)
        s0 = x.filterScaled(b1).filterAdding(y.filterScaled(-a1)).filterAdding(s1)
        s1 = x.filterScaled(b2).filterAdding(y.filterScaled(-a2))
        output = y
        return y
    }

    /// Forgets everything (the next sample starts a new warm-up).
    mutating func reset() { self = ButterworthLowPass(tau: tau) }

    /// Recomputes the coefficients when the sample period changed by more than 0.1 %;
    /// true when it did.
    private mutating func updateCoefficients(_ dt: Double) -> Bool {
        if coefficientPeriod > 0 && abs(dt - coefficientPeriod) <= 1e-3 * coefficientPeriod { return false }
        defer { coefficientPeriod = dt }
        let fc = 2.0.squareRoot() / (2 * Double.pi * tau)
        if fc * dt >= 0.45 {
            // The cut-off is at (or beyond) the Nyquist frequency of this sample rate: the
            // filter cannot smooth anything, so it passes samples through.
            b0 = 1; b1 = 0; b2 = 0; a1 = 0; a2 = 0
            return true
        }
        // Bilinear transform with frequency pre-warping: C = tan(π f_c T).
        let c = tan(Double.pi * fc * dt)
        let d = c * c + 2.0.squareRoot() * c + 1
        b0 = c * c / d
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (c * c - 1) / d
        a2 = (1 - 2.0.squareRoot() * c + c * c) / d
        return true
    }
}
