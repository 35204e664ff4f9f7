#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to treat the calling (sampling) thread as real-time: SCHED_FIFO and a
/// minimal timer slack. Either may be refused (no CAP_SYS_NICE, no RLIMIT_RTPRIO); the
/// recorder then runs at normal priority and says so once.
public enum RealtimePriority {
    /// The outcome, as a sentence for the log; nil when everything was granted.
    public static func request(priority: Int32 = 50) -> String? {
        var problems: [String] = []
        // 1 ns timer slack so wake-ups are not coalesced (the prctl PR_SET_TIMERSLACK knob,
        // reached through procfs because variadic prctl is not callable from Swift).
        let fd = open("/proc/\(threadID())/timerslack_ns", O_WRONLY)
        if fd < 0 || write(fd, "1", 1) != 1 {
            problems.append("timer slack unchanged (\(String(cString: strerror(errno))))")
        }
        if fd >= 0 { close(fd) }
        var param = sched_param()
        param.sched_priority = priority
        let rc = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param)
        if rc != 0 {
            problems.append("SCHED_FIFO refused (\(String(cString: strerror(rc)))); running at normal priority — grant CAP_SYS_NICE or an rtprio limit (see README) for steadier timing")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The calling thread's scheduling policy and priority, to restore after a recording.
    public struct State: Sendable {
        var policy: Int32
        var priority: Int32
    }

    public static func current() -> State {
        var policy: Int32 = 0
        var param = sched_param()
        pthread_getschedparam(pthread_self(), &policy, &param)
        return State(policy: policy, priority: param.sched_priority)
    }

    /// Puts the calling thread back to `state` (a thread that records and then does other
    /// work, such as a test runner's or the daemon's, must not stay SCHED_FIFO).
    public static func restore(_ state: State) {
        var param = sched_param()
        param.sched_priority = state.priority
        _ = pthread_setschedparam(pthread_self(), state.policy, &param)
    }

    /// The calling thread's kernel id, from the `/proc/thread-self` link ("PID/task/TID").
    static func threadID() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard n > 0 else { return "self" }
        let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.map(String.init) ?? "self"
    }
}
