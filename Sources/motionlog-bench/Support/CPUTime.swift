import MotionSystem

/// CPU-time clocks, in nanoseconds.
enum CPUTime {
    /// CPU time used by the calling thread.
    static func threadNanos() -> Int64 { SystemClocks.threadCPUNanos() }
    /// CPU time used by all threads of the process.
    static func processNanos() -> Int64 { SystemClocks.processCPUNanos() }

    /// The calling thread's scheduling policy as its name (`SCHED_FIFO`, `SCHED_OTHER`, ...).
    static func currentPolicyName() -> String { ThreadScheduling.current().name }
}
