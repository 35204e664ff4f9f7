import CFileSystem
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The few system calls the offload needs beyond swift-system, each retried on EINTR and
/// turned into a typed error.
enum SystemCalls {
    static var errno: Errno { Errno(rawValue: Glibc.errno) }

    static func openDirectory(_ path: String) throws(OffloadError) -> Int32 {
        let fd = retrying { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw OffloadError("open the folder", path: path, errno: errno) }
        return fd
    }

    /// Runs `call` until it does not fail with EINTR.
    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let r = call()
            if r >= 0 || Glibc.errno != EINTR { return r }
        }
    }

    /// Reads up to `count` bytes; 0 at the end of the file.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, path: String) throws(OffloadError) -> Int {
        let n = retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if n < 0 { throw OffloadError("read", path: path, errno: errno) }
        return n
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(OffloadError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = retrying { Glibc.write(fd, base + done, bytes.count - done) }
            if n < 0 { throw OffloadError("write", path: path, errno: errno) }
            if n == 0 { throw OffloadError("write", path: path, reason: "the device accepted no bytes") }
            done += n
        }
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(OffloadError) {
        let failure: OffloadError? = bytes.withUnsafeBytes { b -> OffloadError? in
            do throws(OffloadError) { try writeAll(fd, b, path: path); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    static func fsync(_ fd: Int32, path: String) throws(OffloadError) {
        if retrying({ Glibc.fsync(fd) }) != 0 { throw OffloadError("flush to the device", path: path, errno: errno) }
    }

    /// Asks the kernel to drop its cached pages of `fd`, so the next read comes from the device.
    static func dropCache(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// Renames within one folder, never replacing an existing name.
    static func renameNoReplace(directory fd: Int32, from: String, to: String, folder: String) throws(OffloadError) {
        if motionlog_rename_noreplace(fd, from, fd, to) == 0 { return }
        let e = Glibc.errno
        guard e == EINVAL || e == ENOSYS else {
            throw OffloadError("rename \(from) to", path: folder + "/" + to, errno: Errno(rawValue: e))
        }
        // A file system without RENAME_NOREPLACE: check, then rename (we are its only writer).
        var st = stat()
        if fstatat(fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            throw OffloadError("rename \(from) to", path: folder + "/" + to, reason: "a file of that name exists already")
        }
        if renameat(fd, from, fd, to) != 0 { throw OffloadError("rename \(from) to", path: folder + "/" + to, errno: errno) }
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path`.
    static func availableBytes(_ path: String) -> Int64? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// The file system type's magic number (statfs f_type).
    static func fileSystemMagic(_ path: String) -> Int64? {
        let magic = motionlog_filesystem_magic(path)
        return magic < 0 ? nil : Int64(magic)
    }

    /// True when a running recording holds the writer's exclusive lock on `path`.
    static func isLockedByWriter(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return Glibc.errno == EWOULDBLOCK
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "motionlog" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "motionlog" : name
    }
}

/// The logger's name on a stick or a remote: its hostname (the part before the first dot),
/// so that several loggers can share one stick or bucket.
public enum LoggerName {
    public static var current: String {
        let full = SystemCalls.hostName()
        return full.split(separator: ".").first.map(String.init) ?? full
    }
}
