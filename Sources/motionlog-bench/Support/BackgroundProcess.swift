import Foundation
import MotionSystem
import Synchronization

/// A child that runs beside the bench until it ends or is stopped: a server (`motionlog
/// serve`, nginx) or one download of a loop. Started with `posix_spawnp` (searched in PATH);
/// standard output and error go to files of their own in the scratch folder, so children
/// running at the same time never share them (ChildProcess.run's files are per bench
/// process). `stop()` sends SIGTERM, waits, then SIGKILL, and reaps the child; it is safe
/// to call more than once, and `deinit` calls it, so a child cannot outlive its owner.
/// One instance belongs to one thread.
final class BackgroundProcess {
    let pid: Int32
    let command: String
    private let outPath: String
    private let errPath: String
    private let started: Date
    /// How it ended, once reaped.
    private var exit: ChildProcesses.Exit?
    private var endedAt: Date?

    private static let serial = Atomic<Int>(0)

    private init(pid: Int32, command: String, outPath: String, errPath: String, started: Date) {
        self.pid = pid; self.command = command; self.outPath = outPath; self.errPath = errPath; self.started = started
    }

    deinit {
        stop()
        try? FileSystem.remove(outPath)
        try? FileSystem.remove(errPath)
    }

    /// Starts `program` with `arguments`; fails when it cannot be started at all.
    static func start(_ program: String, _ arguments: [String], scratch: String) throws(BenchError) -> BackgroundProcess {
        let command = ([program] + arguments).joined(separator: " ")
        let n = serial.add(1, ordering: .relaxed).newValue
        let outPath = scratch + "/bg-\(CurrentProcess.id)-\(n)-stdout.txt"
        let errPath = scratch + "/bg-\(CurrentProcess.id)-\(n)-stderr.txt"
        let started = Date()
        let pid = try ChildProcess.spawn(program, arguments, stdout: outPath, stderr: errPath, nullInput: true)
        return BackgroundProcess(pid: pid, command: command, outPath: outPath, errPath: errPath, started: started)
    }

    /// Whether the child still runs (reaps it when it has ended).
    var isRunning: Bool {
        guard exit == nil else { return false }
        do {
            guard let ended = try ChildProcesses.exitIfEnded(pid) else { return true }
            exit = ended
            endedAt = Date()
        } catch {
            return false
        }
        return false
    }

    /// Waits for the child to end by itself and says how it ended.
    func wait() -> ChildResult {
        if exit == nil {
            exit = (try? ChildProcesses.wait(pid)) ?? ChildProcesses.Exit(status: 0x7F)
            endedAt = Date()
        }
        return result
    }

    /// Ends the child: SIGTERM, up to `grace` seconds to exit, then SIGKILL; reaps it.
    @discardableResult
    func stop(grace: Double = 5) -> ChildResult {
        guard isRunning else { return result }
        ChildProcesses.send(Signals.terminate, to: pid)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning && Date() < deadline { SystemClocks.sleep(nanos: 20_000_000) }
        if isRunning {
            ChildProcesses.send(Signals.kill, to: pid)
            return wait()
        }
        return result
    }

    /// What it wrote so far on standard output and error.
    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// CPU seconds (user + system) the running child has used so far, from
    /// `/proc/PID/stat`; nil when it has ended or /proc is unreadable.
    var cpuSecondsSoFar: Double? {
        guard exit == nil, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(SystemInfo.clockTicksPerSecond)
        return ticks > 0 ? (user + system) / ticks : nil
    }

    /// How it ended (or, while it runs, what it has written so far).
    var result: ChildResult {
        ChildResult(
            command: command, exitCode: exit?.exitCode, signal: exit?.signal,
            stdout: stdout, stderr: stderr,
            userSeconds: exit?.userSeconds ?? 0, systemSeconds: exit?.systemSeconds ?? 0,
            wallSeconds: (endedAt ?? Date()).timeIntervalSince(started))
    }
}
