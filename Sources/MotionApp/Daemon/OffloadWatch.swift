import Foundation
import MotionOffload
import MotionSystem
import Synchronization

/// Follows a USB offload (`motionlog offload`, run by its own service when a stick is
/// plugged in) through the progress file it writes, for `status` and the LED. Refreshed
/// once a second by the daemon loop; the recording is never involved.
final class OffloadWatch: Sendable {
    let path: String?
    private let current = Mutex<OffloadProgress?>(nil)
    /// How long "done", "incomplete" or "error" stays on the LED after the offload ended (unless the stick
    /// is pulled out first).
    static let showEndSeconds = 600.0
    /// A copy whose progress file was not updated for this long, by a process that is gone,
    /// was interrupted.
    static let staleSeconds = 30.0

    init(path: String?) { self.path = path }

    /// The progress file: `offload.json` in the folder of the daemon's control socket.
    static func statusFile(socket: String) -> String {
        (socket as NSString).deletingLastPathComponent + "/offload.json"
    }

    var progress: OffloadProgress? { current.withLock { $0 } }

    func refresh(now: Date = Date(), deviceExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) },
                 processAlive: (Int32) -> Bool = { ChildProcesses.isAlive($0) }) {
        let seen = path.flatMap { OffloadProgress.read(from: $0) }
        current.withLock { $0 = seen.flatMap { Self.shown($0, now: now.timeIntervalSince1970, deviceExists: deviceExists, processAlive: processAlive) } }
    }

    /// What to show of a progress file: nil once it no longer matters.
    static func shown(_ p: OffloadProgress, now: Double, deviceExists: (String) -> Bool,
                      processAlive: (Int32) -> Bool) -> OffloadProgress? {
        var p = p
        let age = now - p.updated
        switch p.state {
        case .copying:
            if age > staleSeconds && !processAlive(p.pid) {
                p.state = .error
                p.message = "the offload to \(p.target) was interrupted; plug the stick in again to resume"
                return age > showEndSeconds ? nil : p
            }
            return p
        case .done, .incomplete, .error:
            if age > showEndSeconds { return nil }
            // Pulled out: nothing more to say about that stick.
            if p.target.hasPrefix("/dev/") && !deviceExists(p.target) { return nil }
            return p
        }
    }
}
