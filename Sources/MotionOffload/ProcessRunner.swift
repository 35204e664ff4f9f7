import Foundation
import MotionSystem

/// The result of running a program: its exit status and what it printed.
public struct ProcessResult: Sendable, Equatable {
    public var status: Int32
    public var output: String
    public init(status: Int32, output: String) { self.status = status; self.output = output }
}

/// Runs external programs (`mount`, `blkid`, `rclone`); tests may substitute a script.
public protocol ProcessRunning: Sendable {
    /// Runs `executable` with `arguments` and this process's environment changed by
    /// `environment` (an empty value removes the variable), waits, and returns its status
    /// and combined output.
    func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult
}

/// Runs programs found on PATH or the usual system folders (`ChildProcesses.run`), their
/// output and errors captured together. With `stop`, a program still running when the stop
/// is requested is sent SIGTERM.
public struct SystemProcessRunner: ProcessRunning {
    public var stop: OffloadStop?

    public init(stop: OffloadStop? = nil) { self.stop = stop }

    public func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
        guard let path = Self.find(executable) else {
            return ProcessResult(status: 127, output: "\(executable) is not installed (apt-get install \(Self.package(of: executable)))")
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
        // Started as a shell starts a program (no signal blocked): Foundation's Process
        // passed on the signal mask of the thread that started it, so a SIGTERM to end
        // rclone could stay pending for ever.
        let ran: (exit: ChildProcesses.Exit, output: [UInt8])
        var child: Int32?
        defer { if let stop, let child { stop.ended(child) } }
        do {
            ran = try ChildProcesses.run(path, arguments, environment: env) { pid in
                child = pid
                if let stop, !stop.started(pid) { ChildProcesses.send(Signals.terminate, to: pid) }
            }
        } catch {
            return ProcessResult(status: 127, output: "cannot run \(path): \(error)")
        }
        let status = ran.exit.signal.map { 128 + $0 } ?? ran.exit.exitCode ?? 1
        return ProcessResult(status: status, output: String(decoding: ran.output, as: UTF8.self))
    }

    static func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func package(of program: String) -> String {
        switch program {
        case "mount", "umount", "blkid": return "mount util-linux"
        default: return program
        }
    }
}
