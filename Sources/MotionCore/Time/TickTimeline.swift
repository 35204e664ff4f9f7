/// How When is written: epoch seconds (FORMAT.md) or seconds since the first sample.
public enum WhenMode: String, Sendable, Codable, CaseIterable {
    case epoch, relative
}

/// The mapping from tick numbers to monotonic deadlines and to When, fixed by one anchor
/// taken at start (never the jittery wake-up time).
///
/// Ticks are aligned to the wall clock: tick k is absolute tick `firstTick + k` of a grid
/// of 1/rate seconds counted from 1970, so its epoch time is exactly `(firstTick + k) / rate`
/// and prints as a short decimal (`1763735405.01` at 100 Hz). Deadlines are computed from the
/// absolute start with integer arithmetic, so a million ticks later there is no drift.
public struct TickTimeline: Sendable, Equatable {
    public let rateHz: Int
    /// Absolute tick number (since 1970) of tick 0.
    public let firstTick: Int64
    /// Monotonic deadline of tick 0, ns.
    public let startMonotonic: Int64
    public let whenMode: WhenMode

    public init(rateHz: Int, firstTick: Int64, startMonotonic: Int64, whenMode: WhenMode) {
        self.rateHz = rateHz; self.firstTick = firstTick; self.startMonotonic = startMonotonic; self.whenMode = whenMode
    }

    /// Anchors a timeline: reads both clocks once and picks the first grid tick at least
    /// `leadNanos` in the future.
    public static func anchored(rateHz: Int, clock: TickClock, whenMode: WhenMode,
                                leadNanos: Int64 = 2_000_000) -> TickTimeline {
        let mono = clock.monotonicNow()
        let epoch = clock.epochNow()
        let rate = Int64(rateHz)
        // The first absolute tick whose epoch time is at least `leadNanos` ahead.
        let target = epoch + leadNanos
        let secs = target / 1_000_000_000, frac = target % 1_000_000_000
        var first = secs * rate + (frac * rate + 999_999_999) / 1_000_000_000
        if epochNanos(ofAbsoluteTick: first, rate: rate) < target { first += 1 }
        let startMono = mono + (epochNanos(ofAbsoluteTick: first, rate: rate) - epoch)
        return TickTimeline(rateHz: rateHz, firstTick: first, startMonotonic: startMono, whenMode: whenMode)
    }

    /// Nanoseconds from tick 0 to tick k: `k · 10⁹ / rate`, exact integer arithmetic.
    @inlinable public func offsetNanos(_ k: Int64) -> Int64 {
        let rate = Int64(rateHz)
        return (k / rate) * 1_000_000_000 + ((k % rate) * 1_000_000_000) / rate
    }

    @inlinable public func deadline(_ k: Int64) -> Int64 { startMonotonic + offsetNanos(k) }

    /// The first tick whose deadline is later than the monotonic time `t` (computed, not
    /// searched: a wake-up after an hour-long suspend must not walk millions of ticks).
    public func firstTick(after t: Int64) -> Int64 {
        let elapsed = t - startMonotonic
        if elapsed < 0 { return 0 }
        let rate = Int64(rateHz)
        var k = (elapsed / 1_000_000_000) * rate + ((elapsed % 1_000_000_000) * rate) / 1_000_000_000
        // Integer rounding leaves k within one tick of the answer.
        while deadline(k) <= t { k += 1 }
        while k > 0 && deadline(k - 1) > t { k -= 1 }
        return k
    }

    /// The period in ns (rounded down; only used for the overrun threshold).
    public var periodNanos: Int64 { 1_000_000_000 / Int64(rateHz) }

    /// Epoch seconds of tick 0.
    public var startEpochSeconds: Double { Double(firstTick) / Double(rateHz) }

    /// When of tick k as written in the file.
    @inlinable public func when(_ k: Int64) -> Double {
        switch whenMode {
        case .epoch: return Double(firstTick + k) / Double(rateHz)
        case .relative: return Double(k) / Double(rateHz)
        }
    }

    /// The value subtracted from epoch times (GPS fix times) to get When: 0 in epoch mode,
    /// the first sample's epoch time in relative mode.
    public var whenOffset: Double { whenMode == .epoch ? 0 : startEpochSeconds }

    /// The epoch-seconds value of a When (for naming files by local time).
    public func epochSeconds(ofWhen when: Double) -> Double { when + whenOffset }

    public func tick(_ k: Int64) -> Tick {
        Tick(index: k, monotonicNanos: deadline(k), when: when(k), elapsed: Double(k) / Double(rateHz),
             epoch: Double(firstTick + k) / Double(rateHz))
    }

    static func epochNanos(ofAbsoluteTick n: Int64, rate: Int64) -> Int64 {
        (n / rate) * 1_000_000_000 + ((n % rate) * 1_000_000_000) / rate
    }
}
