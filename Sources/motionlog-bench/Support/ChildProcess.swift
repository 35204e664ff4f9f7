import Foundation
import MotionSystem

/// How a child process ended and what it cost: exit status, output, and CPU time from
/// `wait4`'s rusage. (Not its peak memory: posix_spawn's child shares this process's memory
/// until exec, and Linux carries that high-water mark into the child's ru_maxrss; use
/// bench/tools/peak_rss.c for memory.)
struct ChildResult: Sendable {
    var command: String
    /// Exit code; nil when a signal ended the child.
    var exitCode: Int32?
    var signal: Int32?
    var stdout: String
    var stderr: String
    var userSeconds: Double
    var systemSeconds: Double
    var wallSeconds: Double

    var succeeded: Bool { exitCode == 0 }

    /// A one-line reason for a failed child, with the tail of its stderr.
    var failure: String {
        let how = exitCode.map { "exited with \($0)" } ?? "was killed by signal \(signal ?? 0)"
        let tail = stderr.split(separator: "\n").suffix(5).joined(separator: " | ")
        return "`\(command)` \(how)" + (tail.isEmpty ? "" : ": \(tail)")
    }
}

/// Runs a program (searched in PATH) to completion with `posix_spawnp` and `wait4`.
/// Standard output and error go to files in `scratch`, read back when the child ends.
enum ChildProcess {
    /// Starts `program` (searched in PATH) with its output in two files and, when
    /// `nullInput`, /dev/null as its input; returns its pid.
    static func spawn(_ program: String, _ arguments: [String], stdout outPath: String, stderr errPath: String,
                      nullInput: Bool = false) throws(BenchError) -> Int32 {
        do {
            return try ChildProcesses.spawn(program, arguments, environment: ProcessInfo.processInfo.environment,
                                            stdout: outPath, stderr: errPath, nullInput: nullInput)
        } catch {
            throw BenchError("cannot start `\(program)`: \(error) — is it installed and in PATH?")
        }
    }

    static func run(_ program: String, _ arguments: [String], scratch: String) throws(BenchError) -> ChildResult {
        let command = ([program] + arguments).joined(separator: " ")
        let outPath = scratch + "/child-\(CurrentProcess.id)-stdout.txt"
        let errPath = scratch + "/child-\(CurrentProcess.id)-stderr.txt"
        let started = Date()
        let pid = try spawn(program, arguments, stdout: outPath, stderr: errPath)
        let exit: ChildProcesses.Exit
        do { exit = try ChildProcesses.wait(pid) } catch {
            throw BenchError("waiting for `\(command)` failed: \(error)")
        }
        let wall = Date().timeIntervalSince(started)
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        try? FileSystem.remove(outPath)
        try? FileSystem.remove(errPath)
        return ChildResult(
            command: command, exitCode: exit.exitCode, signal: exit.signal, stdout: out, stderr: err,
            userSeconds: exit.userSeconds, systemSeconds: exit.systemSeconds, wallSeconds: wall)
    }

    /// Runs a child that prints one JSON object on stdout and decodes it.
    static func runJSON<T: Decodable>(_ type: T.Type, _ program: String, _ arguments: [String],
                                      scratch: String) throws(BenchError) -> (T, ChildResult) {
        let result = try run(program, arguments, scratch: scratch)
        guard result.succeeded else { throw BenchError(result.failure) }
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        do {
            return (try JSONDecoder().decode(T.self, from: Data(line.utf8)), result)
        } catch {
            throw BenchError("`\(result.command)` printed no readable result (\(error)); its output was: \(line.prefix(300))")
        }
    }

    /// The path of the running executable (for re-running the bench as a probe child).
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
