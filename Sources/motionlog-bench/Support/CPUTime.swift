#if canImport(Glibc)
import Glibc
#endif

/// CPU-time clocks (thin wrappers over `clock_gettime`), in nanoseconds.
enum CPUTime {
    /// CPU time used by the calling thread.
    static func threadNanos() -> Int64 { read(CLOCK_THREAD_CPUTIME_ID) }
    /// CPU time used by all threads of the process.
    static func processNanos() -> Int64 { read(CLOCK_PROCESS_CPUTIME_ID) }

    private static func read(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        guard clock_gettime(id, &ts) == 0 else { return 0 }
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The calling thread's scheduling policy as its name (`SCHED_FIFO`, `SCHED_OTHER`, ...).
    static func currentPolicyName() -> String {
        var policy: Int32 = 0
        var param = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &param) == 0 else { return "unknown" }
        switch policy {
        case Int32(SCHED_FIFO): return "SCHED_FIFO"
        case Int32(SCHED_RR): return "SCHED_RR"
        case Int32(SCHED_OTHER): return "SCHED_OTHER"
        default: return "policy \(policy)"
        }
    }
}
