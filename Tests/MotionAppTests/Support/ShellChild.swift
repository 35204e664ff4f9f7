import Foundation
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// A process started the way a shell starts one: an empty signal mask and default signal
/// actions, optionally on a pseudo-terminal of its own (its controlling terminal, so typing
/// Ctrl-C there sends SIGINT as in a real terminal).
///
/// Foundation's `Process` is not used for signal tests: it passes on the blocked signals of
/// the test runner's thread (libdispatch worker threads block them), and a child that
/// starts with SIGINT/SIGTERM blocked in every thread hides exactly the bug those tests
/// look for.
final class ShellChild {
    let pid: pid_t
    /// The terminal's master side (nil: no terminal; output goes to files).
    let master: Int32?
    private(set) var terminalOutput: [UInt8] = []
    private var status: Int32?

    struct SpawnError: Error, CustomStringConvertible { var description: String }

    /// Starts `argv` (an absolute path first). Without a terminal, stdout and stderr go to
    /// the files given; with one, both go to the terminal (read with `terminalOutput`).
    init(_ argv: [String], stdout: String = "/dev/null", stderr: String = "/dev/null", terminal: Bool = false) throws {
        var flags: Int32 = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var masterFD: Int32?
        if terminal {
            // posix_openpt/grantpt/unlockpt/ptsname are not in Swift's Glibc module: the same
            // through /dev/ptmx and its ioctls (asm-generic numbers, as on x86-64 and arm64).
            let tiocgptn: UInt = 0x8004_5430, tiocsptlck: UInt = 0x4004_5431
            let m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard m >= 0, ioctl(m, tiocsptlck, &unlock) == 0, ioctl(m, tiocgptn, &number) == 0 else {
                throw SpawnError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
            }
            let slave = "/dev/pts/\(number)"
            // A new session (glibc's POSIX_SPAWN_SETSID, 0x80): the first terminal it opens
            // becomes its controlling terminal, its process group the foreground group.
            flags |= 0x80
            posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            masterFD = m
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        // As a shell starts a program: empty signal mask, default signal actions.
        let rc = ChildProcesses.withShellLikeAttributes(flags: flags) { (attributes: UnsafePointer<posix_spawnattr_t>) -> Int32 in
            posix_spawn(&pid, argv[0], &actions, attributes, &cArgs, environ)
        }
        guard rc == 0 else {
            if let masterFD { close(masterFD) }
            throw SpawnError(description: "cannot start \(argv[0]): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        self.master = masterFD
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = waitStatus() }
        if let master { close(master) }
    }

    func signal(_ sig: Int32) { kill(pid, sig) }

    /// Types bytes on the terminal (e.g. `[3]` for Ctrl-C).
    func type(_ bytes: [UInt8]) {
        guard let master else { return }
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the terminal shows so far (never blocks), so the child never stalls on a full terminal.
    func drainTerminal() {
        guard let master else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 0) > 0, p.revents & Int16(POLLIN) != 0 else { return }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            terminalOutput.append(contentsOf: buffer[0..<n])
        }
    }

    var terminalText: String { String(decoding: terminalOutput, as: UTF8.self) }

    /// Waits (bounded by `timeout` seconds, then SIGKILL) until the child exits; returns its
    /// exit code, or nil if a signal ended it (see `endingSignal`).
    @discardableResult
    func wait(timeout: Double = 120) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while status == nil {
            drainTerminal()
            var s: Int32 = 0
            let r = waitpid(pid, &s, WNOHANG)
            if r == pid { status = s; break }
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        drainTerminal()
        return exitCode
    }

    private func waitStatus() -> Int32 {
        var s: Int32 = 0
        while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
        status = s
        return s
    }

    /// The exit code (nil while running or when a signal ended it).
    var exitCode: Int32? {
        guard let s = status, s & 0x7f == 0 else { return nil }
        return (s >> 8) & 0xff
    }

    /// The signal that ended the child (nil when it exited).
    var endingSignal: Int32? {
        guard let s = status, s & 0x7f != 0, s & 0x7f != 0x7f else { return nil }
        return s & 0x7f
    }

    var outcome: String {
        if let c = exitCode { return "exit \(c)" }
        if let s = endingSignal { return "killed by signal \(s)" }
        return "running"
    }

    /// The blocked-signal masks of each of the child's threads (from /proc), with the
    /// system call each is in (`syscall` number, nil when not readable). A thread waiting
    /// in `sigwaitinfo` shows the signals it waits for as not blocked while it waits.
    func blockedSignals() -> [(thread: String, mask: UInt64, syscall: Int?)] {
        let dir = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return tasks.compactMap { task in
            guard let status = try? String(contentsOfFile: "\(dir)/\(task)/status", encoding: .utf8) else { return nil }
            let name = status.split(separator: "\n").first { $0.hasPrefix("Name:") }?.dropFirst(5)
                .trimmingCharacters(in: .whitespaces) ?? task
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                  let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            let call = (try? String(contentsOfFile: "\(dir)/\(task)/syscall", encoding: .utf8))
                .flatMap { $0.split(separator: " ").first.flatMap { Int($0) } }
            return ("\(name) (\(task))", mask, call)
        }
    }
}
