import MotionSystem

/// Asks the kernel to treat the calling (sampling) thread as real-time: SCHED_FIFO and a
/// minimal timer slack. Either may be refused (no CAP_SYS_NICE, no RLIMIT_RTPRIO); the
/// recorder then runs at normal priority and says so once.
public enum RealtimePriority {
    /// The outcome, as a sentence for the log; nil when everything was granted.
    public static func request(priority: Int32 = 50) -> String? {
        var problems: [String] = []
        // 1 ns timer slack so wake-ups are not coalesced.
        do { try ThreadScheduling.setTimerSlack(nanos: 1) } catch {
            problems.append("timer slack unchanged (\(error))")
        }
        do { try ThreadScheduling.setFIFO(priority: priority) } catch {
            problems.append("SCHED_FIFO refused (\(error)); running at normal priority — grant CAP_SYS_NICE or an rtprio limit (see README) for steadier timing")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The calling thread's scheduling policy and priority, to restore after a recording.
    public struct State: Sendable {
        var policy: ThreadScheduling.Policy
    }

    public static func current() -> State { State(policy: ThreadScheduling.current()) }

    /// Puts the calling thread back to `state` (a thread that records and then does other
    /// work, such as a test runner's or the daemon's, must not stay SCHED_FIFO).
    public static func restore(_ state: State) {
        try? ThreadScheduling.set(state.policy)
    }
}
