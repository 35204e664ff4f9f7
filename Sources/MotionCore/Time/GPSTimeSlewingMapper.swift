/// Applies a time correction to When without ever stepping back.
///
/// The recorder's timeline maps a tick's monotonic time to epoch through an anchor taken
/// at start from the system clock. When that clock was wrong (no RTC, no network) and GPS
/// time becomes known, the correction `target` (GPS offset − system offset) is applied:
/// - a forward correction larger than `stepThresholdNanos` is applied at once (a step
///   forward: When jumps ahead once, every source stays strictly increasing);
/// - anything else — small refinements, drift, and every backward correction — is slewed:
///   the applied correction moves toward the target by at most `maxSlewPPM` millionths of
///   the elapsed monotonic time. At the default 500 ppm (the kernel's own slew limit for
///   NTP) a tick of 10 ms advances When by at least 9.995 ms, so When never goes back.
///
/// Pure: the caller passes monotonic times (non-decreasing).
public struct SlewingEpochMapper: Sendable, Equatable {
    public let maxSlewPPM: Double
    public let stepThresholdNanos: Int64
    /// The correction currently applied, ns (add to the system-anchored epoch).
    public private(set) var appliedNanos: Int64 = 0
    /// The correction wanted, ns; nil until a target is set.
    public private(set) var targetNanos: Int64?
    /// Forward steps taken, and their total, ns.
    public private(set) var steps = 0
    public private(set) var steppedNanos: Int64 = 0
    private var lastMonotonic: Int64?

    public init(maxSlewPPM: Double = 500, stepThresholdNanos: Int64 = 100_000_000) {
        self.maxSlewPPM = min(max(maxSlewPPM, 1), 100_000)
        self.stepThresholdNanos = max(0, stepThresholdNanos)
    }

    /// Sets the correction to reach (GPS offset − system offset), ns.
    public mutating func setTarget(_ nanos: Int64) {
        targetNanos = nanos
    }

    /// Correction still to apply, ns (target − applied; 0 without a target).
    public var remainingNanos: Int64 { (targetNanos ?? appliedNanos) - appliedNanos }

    /// True while a slew is in progress.
    public var isSlewing: Bool { remainingNanos != 0 }

    /// Advances to monotonic time `monotonicNanos` and returns the correction to add there.
    public mutating func correction(at monotonicNanos: Int64) -> Int64 {
        let elapsed = lastMonotonic.map { max(0, monotonicNanos - $0) } ?? 0
        lastMonotonic = max(monotonicNanos, lastMonotonic ?? monotonicNanos)
        guard let target = targetNanos else { return appliedNanos }
        let error = target - appliedNanos
        if error > stepThresholdNanos {
            appliedNanos = target
            steps += 1
            steppedNanos += error
            return appliedNanos
        }
        let allowance = Int64((Double(elapsed) * maxSlewPPM / 1e6).rounded(.down))
        appliedNanos += error >= 0 ? min(error, allowance) : -min(-error, allowance)
        return appliedNanos
    }
}
