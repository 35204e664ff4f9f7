import Foundation
import MotionSystem

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
        let me = ThreadScheduling.threadID(), main = String(CurrentProcess.id)
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
            return Entry(name: name, policy: ThreadScheduling.name(ofPolicy: policy), priority: prio)
        }
    }
}
