import Foundation
import MotionSystem

/// The machine a run was measured on, and how busy it was (these machines are shared).
struct MachineInfo: Codable, Sendable {
    var processors: Int
    var cpuModel: String
    var kernel: String
    var memoryMB: Int?
    /// 1-, 5- and 15-minute load averages at the start and end of the run.
    var loadAverageAtStart: [Double]
    var loadAverageAtEnd: [Double]?

    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") || $0.hasPrefix("Model") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.filter(\.isNumber)) }
        let kernel = [SystemInfo.kernelName(), SystemInfo.kernelRelease(), SystemInfo.machine()].map { $0 ?? "" }
        return MachineInfo(processors: SystemInfo.onlineProcessors, cpuModel: model,
                           kernel: kernel.joined(separator: " "),
                           memoryMB: memKB.map { $0 / 1024 }, loadAverageAtStart: loadAverage(),
                           loadAverageAtEnd: nil)
    }

    static func loadAverage() -> [Double] {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).compactMap { Double($0) }
    }
}
