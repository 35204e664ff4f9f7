import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Child processes started by hand: `posix_spawnp` (searched in PATH) as a shell starts
/// them (empty signal mask, default signal actions) with standard output and error sent to
/// files, and `wait4` for how they ended and what CPU they used.
public enum ChildProcesses {
    /// How a child ended.
    public struct Exit: Sendable, Equatable {
        /// The raw wait status.
        public var status: Int32
        public var userSeconds: Double
        public var systemSeconds: Double

        /// Exit code; nil when a signal ended the child.
        public var exitCode: Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }
        /// The signal that ended the child, if one did.
        public var signal: Int32? { status & 0x7F == 0 ? nil : status & 0x7F }

        public init(status: Int32, userSeconds: Double = 0, systemSeconds: Double = 0) {
            self.status = status; self.userSeconds = userSeconds; self.systemSeconds = systemSeconds
        }

        init(status: Int32, usage: rusage) {
            self.init(status: status,
                      userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
                      systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6)
        }
    }

    /// Starts `program` with `arguments` and `environment`; its output and errors go to the
    /// files at `stdout` and `stderr` (created or truncated), its input is /dev/null when
    /// `nullInput`. Returns the child's pid.
    public static func spawn(_ program: String, _ arguments: [String], environment: [String: String],
                             stdout outPath: String, stderr errPath: String, nullInput: Bool = false) throws(Errno) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if nullInput { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        return try spawn(program, arguments, environment: environment, actions: &actions)
    }

    /// `posix_spawnp` with shell-like attributes and the file actions given.
    private static func spawn(_ program: String, _ arguments: [String], environment: [String: String],
                              actions: inout posix_spawn_file_actions_t) throws(Errno) -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        try withShellLikeAttributes { (attributes: UnsafePointer<posix_spawnattr_t>) throws(Errno) -> Void in
            try Syscall.checking(posix_spawnp(&pid, program, &actions, attributes, argv, envp))
        }
        return pid
    }

    /// Runs `program` (a path, or a name searched in PATH) with `arguments` and exactly
    /// `environment`, as a shell starts it (`withShellLikeAttributes`), input from /dev/null,
    /// output and errors into one pipe read here; `started` hears its pid before anything
    /// is read (to end it early). Returns how it ended and the last `keep` bytes it printed
    /// (memory bounded whatever it prints).
    public static func run(_ program: String, _ arguments: [String], environment: [String: String], keep: Int = 256 << 10,
                           started: (Int32) -> Void = { _ in }) throws(Errno) -> (exit: Exit, output: [UInt8]) {
        var fds: [Int32] = [0, 0]
        try Syscall.retrying { pipe(&fds) }
        // Close-on-exec at once (Glibc's module has no pipe2): no other child inherits them.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        let pid: Int32
        do { pid = try spawn(program, arguments, environment: environment, actions: &actions) } catch {
            close(readEnd); close(writeEnd)
            throw error
        }
        close(writeEnd)
        started(pid)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 && Syscall.errno == .interrupted { continue }
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
            if output.count > 2 * keep { output.removeFirst(output.count - keep) }
        }
        close(readEnd)
        if output.count > keep { output.removeFirst(output.count - keep) }
        return (try wait(pid), output)
    }

    /// Spawn attributes that start a child as a shell does: no signal blocked and every
    /// signal at its default action (the caller's threads may block signals, and a child
    /// inheriting that would ignore SIGTERM), plus `flags` (e.g. glibc's POSIX_SPAWN_SETSID).
    public static func withShellLikeAttributes<R, E: Error>(flags: Int32 = 0,
                                                            _ body: (UnsafePointer<posix_spawnattr_t>) throws(E) -> R) throws(E) -> R {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | flags))
        return try body(&attributes)
    }

    /// Waits for the child to end.
    public static func wait(_ pid: Int32) throws(Errno) -> Exit {
        var status: Int32 = 0
        var usage = rusage()
        try Syscall.retrying { wait4(pid, &status, 0, &usage) }
        return Exit(status: status, usage: usage)
    }

    /// Reaps the child if it has ended: its exit; nil while it runs. Throws when it cannot
    /// be waited for (not a child, already reaped).
    public static func exitIfEnded(_ pid: Int32) throws(Errno) -> Exit? {
        var status: Int32 = 0
        var usage = rusage()
        let r = try Syscall.retrying { wait4(pid, &status, WNOHANG, &usage) }
        return r == pid ? Exit(status: status, usage: usage) : nil
    }

    /// `kill(2)`.
    public static func send(_ signal: Int32, to pid: Int32) {
        _ = kill(pid, signal)
    }

    /// Whether a process (a child or any other) with this pid exists: `kill(pid, 0)`,
    /// where EPERM means it exists but belongs to someone else.
    public static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || Syscall.errno == .notPermitted
    }
}

extension Signals {
    public static let kill = SIGKILL
}

/// Loopback TCP.
public enum Loopback {
    /// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
    public static func freePort() throws(SocketError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(operation: "open a socket to find a free port on", path: "127.0.0.1", errno: Syscall.errno) }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw SocketError(operation: "bind", path: "127.0.0.1:0", errno: Syscall.errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SocketError(operation: "read the port bound to", path: "127.0.0.1:0", errno: Syscall.errno) }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
