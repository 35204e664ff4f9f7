import Foundation

/// Resident-memory figures of the current process, from `/proc/self/status`.
enum ProcessMemory {
    /// Current resident set size (VmRSS), KiB; nil when /proc is unreadable.
    static func residentKB() -> Int? { field("VmRSS:") }
    /// Peak resident set size so far (VmHWM), KiB.
    static func peakResidentKB() -> Int? { field("VmHWM:") }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }
}
