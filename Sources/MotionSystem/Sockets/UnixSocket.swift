import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A failed socket operation: what, on which path, and the errno.
public struct SocketError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Errno?
    public var description: String { "cannot \(operation) \(path)" + (errno.map { ": \($0)" } ?? "") }
}

/// Thin typed wrappers over the Unix-domain stream socket syscalls the control socket uses.
/// Descriptors are plain `Int32`s, closed with `close(_:)`.
public enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxPathBytes = 107

    static func address(_ path: String) throws(SocketError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes else {
            throw SocketError(operation: "use socket path (empty or longer than \(maxPathBytes) bytes)", path: path, errno: nil)
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return addr
    }

    static func makeSocket(_ path: String) throws(SocketError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SocketError(operation: "create a socket for", path: path, errno: Syscall.errno) }
        return fd
    }

    /// Connects to a listening socket; throws with the errno (ENOENT, ECONNREFUSED, EACCES, ...).
    public static func connect(_ path: String) throws(SocketError) -> Int32 {
        var addr = try address(path)
        let fd = try makeSocket(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let e = Syscall.errno
            Glibc.close(fd)
            throw SocketError(operation: "connect to", path: path, errno: e)
        }
        return fd
    }

    /// Binds and listens at `path` (which must not exist). The socket file gets `mode` (and
    /// `group`) before `listen`, so it is never reachable with a wider mode: the mode is set
    /// on the socket before `bind` (Linux creates the file with it, less the umask), and the
    /// file's mode and group are fixed up between `bind` and `listen` (a bound socket that
    /// does not listen refuses every connection). `warn` hears what could not be set;
    /// `beforeListen` lets tests look at the file at that moment.
    public static func listen(_ path: String, backlog: Int32 = 64, mode: UInt32 = 0o600, group: UInt32? = nil,
                              warn: (String) -> Void = { _ in }, beforeListen: (() -> Void)? = nil) throws(SocketError) -> Int32 {
        var addr = try address(path)
        let fd = try makeSocket(path)
        _ = fchmod(fd, mode_t(mode))
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let e = Syscall.errno
            Glibc.close(fd)
            throw SocketError(operation: "bind the control socket", path: path, errno: e)
        }
        // A restrictive umask took bits away: put them back (never wider than `mode`).
        if let info = fileInfo(path), info.isSocket, info.mode != mode {
            do { try FileSystem.setPermissions(path, mode) } catch {
                warn("cannot set mode \(String(mode, radix: 8)) on \(path): \(error)")
            }
        }
        if let group {
            do { try FileSystem.setGroup(path, group) } catch {
                warn("cannot give the control socket \(path) to group \(groupName(group)): \(error)")
            }
        }
        beforeListen?()
        if Glibc.listen(fd, backlog) != 0 {
            let e = Syscall.errno
            Glibc.close(fd)
            unlink(path)
            throw SocketError(operation: "listen on", path: path, errno: e)
        }
        return fd
    }

    /// Gives up on a blocking read after `seconds` (any socket, e.g. libgps's).
    public static func setReceiveTimeout(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Gives up on a blocking read or write after `seconds`.
    public static func setTimeouts(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads up to the first LF (not included). Nil when the peer closed before sending a
    /// whole line; throws on errors, timeouts and lines longer than `limit`.
    public static func readLine(_ fd: Int32, limit: Int, path: String) throws(SocketError) -> [UInt8]? {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do {
                n = try buffer.withMutableBytes { (raw) throws(Errno) -> Int in
                    try Syscall.retrying { recv(fd, raw.baseAddress, raw.count, 0) }
                }
            } catch {
                throw SocketError(operation: "read from", path: path, errno: error)
            }
            if n == 0 { return nil }
            if let lf = buffer[0..<n].firstIndex(of: 0x0A) {
                line.append(contentsOf: buffer[0..<lf])
                return line
            }
            line.append(contentsOf: buffer[0..<n])
            if line.count > limit { throw SocketError(operation: "read (line too long) from", path: path, errno: nil) }
        }
    }

    /// Writes every byte (no SIGPIPE when the peer went away).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SocketError) {
        var done = 0
        while done < bytes.count {
            do {
                done += try bytes.withBytes { (raw) throws(Errno) -> Int in
                    try Syscall.retrying { Glibc.send(fd, raw.baseAddress.map { $0 + done }, bytes.count - done, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                throw SocketError(operation: "write to", path: path, errno: error)
            }
        }
    }

    /// The file type and group of `path` (lstat), nil when it cannot be read.
    public static func fileInfo(_ path: String) -> (isSocket: Bool, group: UInt32, mode: UInt32, owner: UInt32)? {
        guard let st = try? FileSystem.status(path, followLinks: false) else { return nil }
        return (st.kind == .socket, st.group, st.permissions, st.owner)
    }

    public static func groupName(_ gid: UInt32) -> String {
        guard let g = getgrgid(gid), let name = g.pointee.gr_name else { return "\(gid)" }
        return String(cString: name)
    }

    public static func groupID(_ name: String) -> UInt32? {
        guard let g = getgrnam(name) else { return nil }
        return g.pointee.gr_gid
    }

    /// Accepts a pending connection of a listening socket, non-blocking and close-on-exec.
    /// Throws when accepting failed (EMFILE, ENFILE, ENOBUFS, ENOMEM: out of resources;
    /// EAGAIN: nothing was pending).
    public static func accept(_ listenFD: Int32) throws(Errno) -> Int32 {
        let fd = try Syscall.retrying { Glibc.accept(listenFD, nil, nil) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// `recv(2)` of at most `count` bytes into `buffer` without waiting: the bytes read
    /// (0: the peer closed), nil when nothing is waiting.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int) throws(Errno) -> Int? {
        do {
            return try Syscall.retrying { recv(fd, buffer.baseAddress, min(count, buffer.count), Int32(MSG_DONTWAIT)) }
        } catch where error == .wouldBlock {
            return nil
        }
    }

    /// `send(2)` without waiting and without SIGPIPE: the bytes the socket took, nil when
    /// it takes none now.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try Syscall.retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        } catch where error == .wouldBlock {
            return nil
        }
    }

    /// `close(2)` of a socket descriptor.
    public static func close(_ fd: Int32) { Glibc.close(fd) }
}
