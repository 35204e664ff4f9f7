import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child that runs beside the bench until it ends or is stopped: a server (`motionlog
/// serve`, nginx) or one download of a loop. Started with `posix_spawnp` (searched in PATH);
/// standard output and error go to files of their own in the scratch folder, so children
/// running at the same time never share them (ChildProcess.run's files are per bench
/// process). `stop()` sends SIGTERM, waits, then SIGKILL, and reaps the child; it is safe
/// to call more than once, and `deinit` calls it, so a child cannot outlive its owner.
/// One instance belongs to one thread.
final class BackgroundProcess {
    let pid: pid_t
    let command: String
    private let outPath: String
    private let errPath: String
    private let started: Date
    /// The wait status once reaped.
    private var status: Int32?
    private var usage = rusage()
    private var endedAt: Date?

    private static let serial = Atomic<Int>(0)

    private init(pid: pid_t, command: String, outPath: String, errPath: String, started: Date) {
        self.pid = pid; self.command = command; self.outPath = outPath; self.errPath = errPath; self.started = started
    }

    deinit {
        stop()
        unlink(outPath)
        unlink(errPath)
    }

    /// Starts `program` with `arguments`; fails when it cannot be started at all.
    static func start(_ program: String, _ arguments: [String], scratch: String) throws(BenchError) -> BackgroundProcess {
        let command = ([program] + arguments).joined(separator: " ")
        let n = serial.add(1, ordering: .relaxed).newValue
        let outPath = scratch + "/bg-\(getpid())-\(n)-stdout.txt"
        let errPath = scratch + "/bg-\(getpid())-\(n)-stderr.txt"
        let started = Date()
        let pid = try ChildProcess.spawn(program, arguments, stdout: outPath, stderr: errPath, nullInput: true)
        return BackgroundProcess(pid: pid, command: command, outPath: outPath, errPath: errPath, started: started)
    }

    /// Whether the child still runs (reaps it when it has ended).
    var isRunning: Bool {
        guard status == nil else { return false }
        var s: Int32 = 0
        let r = wait4(pid, &s, WNOHANG, &usage)
        if r == pid {
            status = s
            endedAt = Date()
            return false
        }
        return r == 0
    }

    /// Waits for the child to end by itself and says how it ended.
    func wait() -> ChildResult {
        if status == nil {
            var s: Int32 = 0
            while wait4(pid, &s, 0, &usage) < 0 {
                guard errno == EINTR else { s = 0x7F; break }
            }
            status = s
            endedAt = Date()
        }
        return result
    }

    /// Ends the child: SIGTERM, up to `grace` seconds to exit, then SIGKILL; reaps it.
    @discardableResult
    func stop(grace: Double = 5) -> ChildResult {
        guard isRunning else { return result }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning && Date() < deadline { usleep(20_000) }
        if isRunning {
            kill(pid, SIGKILL)
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
        guard status == nil, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }

    /// How it ended (or, while it runs, what it has written so far).
    var result: ChildResult {
        let s = status ?? 0
        let termSignal = s & 0x7F
        return ChildResult(
            command: command,
            exitCode: status == nil ? nil : (termSignal == 0 ? (s >> 8) & 0xFF : nil),
            signal: status == nil || termSignal == 0 ? nil : termSignal,
            stdout: stdout, stderr: stderr,
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            wallSeconds: (endedAt ?? Date()).timeIntervalSince(started))
    }
}

/// Loopback TCP helpers for the servers the bench starts.
enum Loopback {
    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
    static func freePort() throws(BenchError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("cannot open a socket to find a free port: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw BenchError("cannot bind 127.0.0.1:0 to find a free port: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw BenchError("cannot read the free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
