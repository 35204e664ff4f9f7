import MotionSystem

/// The clock the scheduler runs on, injected: `SystemClock` in production, a
/// `SimulatedClock` in tests and `--fast` runs. Used from the sampling thread only.
public protocol TickClock: AnyObject {
    /// Monotonic time in nanoseconds (CLOCK_MONOTONIC for the real clock).
    func monotonicNow() -> Int64
    /// Wall-clock time in nanoseconds since 1970 (CLOCK_REALTIME for the real clock).
    func epochNow() -> Int64
    /// Sleeps until the absolute monotonic `deadline`; returns the monotonic wake-up time.
    func sleep(until deadline: Int64) -> Int64
    /// True for the real clock: the scheduler then asks for real-time priority.
    var isRealTime: Bool { get }
}

/// The real clock: CLOCK_MONOTONIC with `clock_nanosleep(TIMER_ABSTIME)`, so sleeps
/// target absolute tick times and never accumulate drift.
public final class SystemClock: TickClock {
    public init() {}

    public var isRealTime: Bool { true }

    public func monotonicNow() -> Int64 { SystemClocks.monotonicNanos() }
    public func epochNow() -> Int64 { SystemClocks.realtimeNanos() }

    /// Interrupted by a signal, it sleeps again toward the same absolute deadline.
    public func sleep(until deadline: Int64) -> Int64 {
        SystemClocks.sleep(untilMonotonic: deadline)
    }

    /// CLOCK_MONOTONIC now, ns (for measurements such as write latency).
    public static func monotonicNanos() -> Int64 { SystemClocks.monotonicNanos() }
    /// CLOCK_REALTIME now, ns since 1970.
    public static func realtimeNanos() -> Int64 { SystemClocks.realtimeNanos() }
}

/// A simulated clock: sleeping advances time instantly. Lateness can be scripted per
/// deadline to reproduce overruns exactly, without real time passing.
public final class SimulatedClock: TickClock {
    private var now: Int64
    private let epochAtZero: Int64
    private let lateness: ((Int64) -> Int64)?

    /// - Parameters:
    ///   - start: the monotonic time the clock starts at (ns).
    ///   - epoch: the wall-clock time (ns since 1970) that corresponds to `start`.
    ///   - lateness: extra nanoseconds to wake up after a given deadline (default none).
    public init(start: Int64 = 1_000_000_000, epoch: Int64, lateness: ((Int64) -> Int64)? = nil) {
        self.now = start
        self.epochAtZero = epoch - start
        self.lateness = lateness
    }

    public var isRealTime: Bool { false }
    public func monotonicNow() -> Int64 { now }
    public func epochNow() -> Int64 { epochAtZero + now }

    public func sleep(until deadline: Int64) -> Int64 {
        now = max(now, deadline) + (lateness?(deadline) ?? 0)
        return now
    }

    /// Moves time forward, e.g. to model the work of a tick.
    public func advance(by nanos: Int64) { now += nanos }
}

