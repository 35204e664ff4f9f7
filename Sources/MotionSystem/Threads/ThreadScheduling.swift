import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The calling thread's scheduling: real-time policy and priority, timer slack, its
/// kernel id. Each call applies to the calling thread only.
public enum ThreadScheduling {
    /// A scheduling policy and priority, to put back after a real-time stretch.
    public struct Policy: Sendable, Equatable {
        public var policy: Int32
        public var priority: Int32

        /// The policy's name (`SCHED_FIFO`, `SCHED_OTHER`, ...).
        public var name: String { ThreadScheduling.name(ofPolicy: Int(policy)) }
    }

    /// The name of a scheduling policy number (as `sched_getscheduler` or /proc report it).
    public static func name(ofPolicy p: Int) -> String {
        switch p {
        case Int(SCHED_OTHER): return "SCHED_OTHER"
        case Int(SCHED_FIFO): return "SCHED_FIFO"
        case Int(SCHED_RR): return "SCHED_RR"
        case 3: return "SCHED_BATCH"      // not exported by Swift's Glibc module
        case 5: return "SCHED_IDLE"
        default: return "policy \(p)"
        }
    }

    /// `pthread_getschedparam` of the calling thread.
    public static func current() -> Policy {
        var policy: Int32 = 0
        var param = sched_param()
        pthread_getschedparam(pthread_self(), &policy, &param)
        return Policy(policy: policy, priority: param.sched_priority)
    }

    /// `pthread_setschedparam(SCHED_FIFO, priority)`: refused without CAP_SYS_NICE or an
    /// rtprio limit.
    public static func setFIFO(priority: Int32) throws(Errno) {
        try set(Policy(policy: Int32(SCHED_FIFO), priority: priority))
    }

    /// `pthread_setschedparam` back to `policy`.
    public static func set(_ policy: Policy) throws(Errno) {
        var param = sched_param()
        param.sched_priority = policy.priority
        try Syscall.checking(pthread_setschedparam(pthread_self(), policy.policy, &param))
    }

    /// The timer slack (ns) the kernel may add to the calling thread's wake-ups, set through
    /// `/proc/<tid>/timerslack_ns` (the prctl PR_SET_TIMERSLACK knob; variadic prctl is not
    /// callable from Swift).
    public static func setTimerSlack(nanos: Int) throws(Errno) {
        let fd = try FileSystem.open("/proc/\(threadID())/timerslack_ns", .writeOnly, options: [.closeOnExec])
        defer { try? fd.close() }
        let text = Array(String(nanos).utf8)
        let written = try text.withBytes { (raw) throws(Errno) -> Int in try fd.writeSome(raw) }
        if written != text.count { throw Errno.ioError }
    }

    /// `setpriority(PRIO_PROCESS, 0, nice)`: on Linux a thread's nice value is its own, and
    /// PRIO_PROCESS with who 0 means the calling thread (setpriority(2), BUGS).
    public static func setNice(_ nice: Int32) throws(Errno) {
        try Syscall.retrying { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
    }

    /// The calling thread's kernel id, from the `/proc/thread-self` link ("PID/task/TID");
    /// "self" when it cannot be read.
    public static func threadID() -> String {
        guard let link = try? FileSystem.readLink("/proc/thread-self"), !link.isEmpty else { return "self" }
        return link.split(separator: "/").last.map(String.init) ?? "self"
    }

}
