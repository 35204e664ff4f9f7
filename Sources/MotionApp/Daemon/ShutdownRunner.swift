import Foundation
import MotionSystem

/// Runs the configured shutdown command after a long press.
protocol ShutdownRunner: Sendable {
    /// Runs `command`; nil when it succeeded, else what went wrong.
    func run(_ command: String) -> String?
}

/// Runs the command with `/bin/sh -c`, as the daemon's user (the service's polkit rule, see
/// docs/DAEMON.md, lets that user power the machine off), started as a shell starts it (no
/// signal blocked: the daemon's threads block the ones it stops on).
struct ShellShutdownRunner: ShutdownRunner {
    func run(_ command: String) -> String? {
        let ran: (exit: ChildProcesses.Exit, output: [UInt8])
        do {
            ran = try ChildProcesses.run("/bin/sh", ["-c", command], environment: ProcessInfo.processInfo.environment)
        } catch {
            return "the shutdown command could not start: \(error)"
        }
        if ran.exit.exitCode == 0 { return nil }
        let said = String(decoding: ran.output, as: UTF8.self).split(whereSeparator: \.isNewline).last.map { " (it said: \($0))" } ?? ""
        let how = ran.exit.signal.map { "ended by signal \($0)" } ?? "exit status \(ran.exit.exitCode ?? -1)"
        return "the shutdown command `\(command)` failed (\(how))\(said): see the journal; the service user may need the polkit rule from docs/DAEMON.md"
    }
}
