#if canImport(Glibc)
import Glibc
#endif

/// The kernel's clocks, in nanoseconds: CLOCK_MONOTONIC for intervals and deadlines,
/// CLOCK_REALTIME for wall-clock time, and absolute sleeps that never accumulate drift.
public enum SystemClocks {
    /// CLOCK_MONOTONIC now, ns.
    public static func monotonicNanos() -> Int64 { read(CLOCK_MONOTONIC) }

    /// CLOCK_REALTIME now, ns since 1970.
    public static func realtimeNanos() -> Int64 { read(CLOCK_REALTIME) }

    /// CPU time used by the calling thread (CLOCK_THREAD_CPUTIME_ID), ns.
    public static func threadCPUNanos() -> Int64 { read(CLOCK_THREAD_CPUTIME_ID) }

    /// CPU time used by the whole process (CLOCK_PROCESS_CPUTIME_ID), ns.
    public static func processCPUNanos() -> Int64 { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`: sleeps until the absolute
    /// monotonic `deadline` (ns); a signal's interruption sleeps again toward the same
    /// deadline. Returns the monotonic time at wake-up.
    @discardableResult
    public static func sleep(untilMonotonic deadline: Int64) -> Int64 {
        var ts = timespec(nanos: deadline)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        return monotonicNanos()
    }

    /// Sleeps for `nanos` on CLOCK_MONOTONIC.
    public static func sleep(nanos: Int64) {
        sleep(untilMonotonic: monotonicNanos() + max(0, nanos))
    }

    static func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

extension timespec {
    init(nanos: Int64) {
        self.init(tv_sec: Int(nanos / 1_000_000_000), tv_nsec: Int(nanos % 1_000_000_000))
    }
}
