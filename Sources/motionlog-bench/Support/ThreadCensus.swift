import Foundation

/// The threads of this process and their scheduling policies, read from
/// `/proc/self/task/*/{comm,stat}` (so the writer thread's policy can be seen from outside).
enum ThreadCensus {
    struct Entry: Codable, Sendable {
        var name: String
        var policy: String
        var priority: Int
    }

    static func snapshot() -> [Entry] {
        let base = "/proc/self/task"
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        return tids.sorted().compactMap { tid in
            let dir = base + "/" + tid
            guard let stat = try? String(contentsOfFile: dir + "/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let name = ((try? String(contentsOfFile: dir + "/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            // Fields after "(comm)": index 0 is field 3 (state); rt_priority is field 40, policy 41.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 38, let prio = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
            return Entry(name: name, policy: policyName(policy), priority: prio)
        }
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
