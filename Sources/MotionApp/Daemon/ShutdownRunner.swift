import Foundation

/// Runs the configured shutdown command after a long press.
protocol ShutdownRunner: Sendable {
    /// Runs `command`; nil when it succeeded, else what went wrong.
    func run(_ command: String) -> String?
}

/// Runs the command with `/bin/sh -c`, as the daemon's user (the service's polkit rule, see
/// docs/DAEMON.md, lets that user power the machine off).
struct ShellShutdownRunner: ShutdownRunner {
    func run(_ command: String) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        do { try p.run() } catch { return "the shutdown command could not start: \(error)" }
        p.waitUntilExit()
        if p.terminationReason == .exit && p.terminationStatus == 0 { return nil }
        return "the shutdown command `\(command)` failed (exit status \(p.terminationStatus)): see the journal; the service user may need the polkit rule from docs/DAEMON.md"
    }
}
