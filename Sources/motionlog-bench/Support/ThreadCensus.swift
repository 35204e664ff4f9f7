import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The threads of this process and their scheduling policies, read from
/// `/proc/self/task/*/{comm,stat}` (so the writer thread's policy can be seen from outside).
enum ThreadCensus {
    struct Entry: Codable, Sendable {
        var name: String
        var policy: String
        var priority: Int
    }

    /// Threads are named by role where this process knows it: the main thread (the
    /// recorder's sampling thread in the probes), the thread taking the snapshot, and others
    /// (the recorder's writer thread).
    static func snapshot() -> [Entry] {
        let base = "/proc/self/task"
        let me = currentThreadID(), main = String(getpid())
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        return tids.sorted().compactMap { tid in
            let dir = base + "/" + tid
            guard let stat = try? String(contentsOfFile: dir + "/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let role = tid == main ? "main" : tid == me ? "census" : "other"
            let comm = ((try? String(contentsOfFile: dir + "/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let name = "\(role) (\(comm))"
            // Fields after "(comm)": index 0 is field 3 (state); rt_priority is field 40, policy 41.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 38, let prio = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
            return Entry(name: name, policy: policyName(policy), priority: prio)
        }
    }

    /// The calling thread's kernel id, from the `/proc/thread-self` link ("PID/task/TID").
    static func currentThreadID() -> String {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.map(String.init) ?? ""
    }

    static func policyName(_ p: Int) -> String {
        switch p {
        case 0: return "SCHED_OTHER"
        case 1: return "SCHED_FIFO"
        case 2: return "SCHED_RR"
        case 3: return "SCHED_BATCH"
        case 5: return "SCHED_IDLE"
        default: return "policy \(p)"
        }
    }
}
