import MotionMath

/// The running integral of the specific force in the filter's almost-inertial frame I,
/// remembered for the last `span` seconds at the boundaries of a grid of `binWidth`, so
/// that its mean over the interval between two GPS fixes can be taken once the second fix
/// has arrived (fixes arrive late, and their times are fix times, not arrival times).
///
/// Time is the filter's own clock: the sum of the sample periods since the filter started.
/// A sample holds its value over its period (`dt` before its time), so the integral at each
/// grid boundary is exact; between boundaries it is interpolated linearly (exact when one
/// sample spans the bin, as at 100 Hz; within a bin's variation at higher rates), so the
/// value is continuous in time: a fix time that falls on a sample, or a clock that differs by
/// a rounding, moves it by a rounding, never by a whole sample. Memory: 800 boundaries of
/// 24 bytes, whatever the sample rate.
struct InertialIntegral: Sendable {
    /// Grid of the remembered values, seconds.
    static let binWidth = 0.005
    /// How far back the integral is remembered, seconds.
    static let span = 4.0
    private static let bins = Int(span / binWidth)

    /// The integral of the specific force since the start (g·s) at clock `time`.
    struct Value: Sendable {
        var integral: Vector3
        var time: Double
    }

    /// The integral at boundary k·binWidth, at index k % bins.
    private var ring: [Vector3]
    private var current = Value(integral: .zero, time: 0)
    /// The last boundary passed (0: the start).
    private var lastBoundary = 0

    init() { ring = Array(repeating: .zero, count: Self.bins) }

    /// The filter's clock: seconds of samples since the start.
    var time: Double { current.time }
    /// The last sample's period (0 before the first).
    private(set) var lastPeriod = 0.0

    /// Forgets everything; the clock restarts at 0.
    mutating func reset() { self = InertialIntegral() }

    /// Adds one sample of specific force `f` (g) that covered the last `dt` seconds.
    mutating func add(_ f: Vector3, dt: Double) {
        let start = current.time, end = start + dt
        let lastInside = Int(end / Self.binWidth)
        if lastInside > lastBoundary {
            // Only the last `bins` boundaries are remembered.
            for k in max(lastBoundary + 1, lastInside - Self.bins + 1)...lastInside {
                let boundary = Double(k) * Self.binWidth
                ring[k % Self.bins] = current.integral + f * max(0, boundary - start)
            }
            lastBoundary = lastInside
        }
        current = Value(integral: current.integral + f * dt, time: end)
        lastPeriod = dt
    }

    /// The integral at clock `t`, or nil when `t` is in the future or older than the
    /// remembered span. A time within half a sample before the start or after the last
    /// sample counts as that end: the clock is a sum of periods, and two sums of the same
    /// periods (the recorder's exact ones, `fuse`'s When differences) differ by roundings,
    /// which must not decide whether a fix taken at the first or last sample is used.
    func value(at time: Double) -> Value? {
        let slack = lastPeriod / 2
        guard time.isFinite, time >= -slack, time <= current.time + slack else { return nil }
        let t = min(max(time, 0), current.time)
        let k = Int(t / Self.binWidth)
        guard k > lastBoundary - Self.bins, k <= lastBoundary else { return nil }
        let from = Value(integral: ring[k % Self.bins], time: Double(k) * Self.binWidth)
        let to = k < lastBoundary
            ? Value(integral: ring[(k + 1) % Self.bins], time: Double(k + 1) * Self.binWidth) : current
        guard to.time > from.time else { return to }
        let fraction = min(1, max(0, (t - from.time) / (to.time - from.time)))
        return Value(integral: from.integral + (to.integral - from.integral) * fraction, time: t)
    }
}
