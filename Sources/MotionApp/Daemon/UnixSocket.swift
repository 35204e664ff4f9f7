import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A failed socket operation: what, on which path, and the errno.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var path: String
    var errno: Errno?
    var description: String { "cannot \(operation) \(path)" + (errno.map { ": \($0)" } ?? "") }
}

/// Thin typed wrappers over the Unix-domain stream socket syscalls the control socket uses.
enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maxPathBytes = 107

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
        if fd < 0 { throw SocketError(operation: "create a socket for", path: path, errno: Errno(rawValue: errno)) }
        return fd
    }

    /// Connects to a listening socket; throws with the errno (ENOENT, ECONNREFUSED, EACCES, ...).
    static func connect(_ path: String) throws(SocketError) -> Int32 {
        var addr = try address(path)
        let fd = try makeSocket(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let e = Errno(rawValue: errno)
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
    static func listen(_ path: String, backlog: Int32 = 64, mode: mode_t = 0o600, group: gid_t? = nil,
                       warn: (String) -> Void = { _ in }, beforeListen: (() -> Void)? = nil) throws(SocketError) -> Int32 {
        var addr = try address(path)
        let fd = try makeSocket(path)
        _ = fchmod(fd, mode)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            let e = Errno(rawValue: errno)
            Glibc.close(fd)
            throw SocketError(operation: "bind the control socket", path: path, errno: e)
        }
        // A restrictive umask took bits away: put them back (never wider than `mode`).
        if let info = fileInfo(path), info.isSocket, info.mode != mode, chmod(path, mode) != 0 {
            warn("cannot set mode \(String(mode, radix: 8)) on \(path): \(Errno(rawValue: errno))")
        }
        if let group, lchown(path, uid_t.max, group) != 0 {
            warn("cannot give the control socket \(path) to group \(groupName(group)): \(Errno(rawValue: errno))")
        }
        beforeListen?()
        if Glibc.listen(fd, backlog) != 0 {
            let e = Errno(rawValue: errno)
            Glibc.close(fd)
            unlink(path)
            throw SocketError(operation: "listen on", path: path, errno: e)
        }
        return fd
    }

    /// Gives up on a blocking read or write after `seconds`.
    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads up to the first LF (not included). Nil when the peer closed before sending a
    /// whole line; throws on errors, timeouts and lines longer than `limit`.
    static func readLine(_ fd: Int32, limit: Int, path: String) throws(SocketError) -> [UInt8]? {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError(operation: "read from", path: path, errno: Errno(rawValue: errno))
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
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SocketError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + done }, bytes.count - done, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SocketError(operation: "write to", path: path, errno: Errno(rawValue: errno))
            }
            done += n
        }
    }

    /// The file type and group of `path` (lstat), nil when it cannot be read.
    static func fileInfo(_ path: String) -> (isSocket: Bool, group: gid_t, mode: mode_t, owner: uid_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return ((st.st_mode & S_IFMT) == S_IFSOCK, st.st_gid, st.st_mode & 0o7777, st.st_uid)
    }

    static func groupName(_ gid: gid_t) -> String {
        guard let g = getgrgid(gid), let name = g.pointee.gr_name else { return "\(gid)" }
        return String(cString: name)
    }

    static func groupID(_ name: String) -> gid_t? {
        guard let g = getgrnam(name) else { return nil }
        return g.pointee.gr_gid
    }
}
