import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The file-system calls on paths: thin, typed (`throws(Errno)`), interrupted calls
/// retried in `Syscall`. Calls on an open file are in `FileDescriptor+System.swift`.
public enum FileSystem {
    /// `open(2)` with swift-system's typed modes and options; the result is never a
    /// descriptor the caller did not ask for (close-on-exec is the caller's option to set).
    public static func open(_ path: String, _ mode: FileDescriptor.AccessMode,
                            options: FileDescriptor.OpenOptions = [],
                            permissions: FilePermissions? = nil) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue
        let fd = try Syscall.retrying {
            if let permissions { return Glibc.open(path, flags, permissions.rawValue) }
            return Glibc.open(path, flags)
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a file to read it through, refusing anything but a regular file (symbolic links
    /// followed): a FIFO would block the open until a writer came (a `summary` hung on one
    /// named `x.csv`), a device could be read forever. The open does not block (the flag
    /// means nothing to a regular file). A directory throws `.isDirectory`; a FIFO, socket
    /// or device `.illegalSeek` (ESPIPE, what seeking one of them gives).
    public static func openForReading(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try open(path, .readOnly, options: [.closeOnExec, .nonBlocking])
        let kind: FileStatus.Kind
        do { kind = try fd.status().kind } catch {
            try? fd.close()
            throw error
        }
        guard kind == .regular else {
            try? fd.close()
            throw kind == .directory ? .isDirectory : .illegalSeek
        }
        return fd
    }

    /// Opens a folder read-only (to fsync it after a rename, or to watch it).
    public static func openDirectory(_ path: String) throws(Errno) -> FileDescriptor {
        try open(path, .readOnly, options: [.directory, .closeOnExec])
    }

    /// `stat(2)`, or `lstat(2)` when `followLinks` is false.
    public static func status(_ path: String, followLinks: Bool = true) throws(Errno) -> FileStatus {
        var st = stat()
        try Syscall.retrying { followLinks ? stat(path, &st) : lstat(path, &st) }
        return FileStatus(st)
    }

    /// True when something (anything, a dangling symbolic link included) has this name.
    public static func exists(_ path: String) -> Bool {
        (try? status(path, followLinks: false)) != nil
    }

    /// `access(2)` with `F_OK`: true when the path resolves to a file.
    public static func isReachable(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Why `path` does not resolve (`access(2)` with `F_OK`): nil when it does; `.noSuchFileOrDirectory`
    /// when nothing is there; `.permissionDenied` when a folder on the way may not be entered.
    public static func unreachable(_ path: String) -> Errno? {
        access(path, F_OK) == 0 ? nil : Errno(rawValue: errno)
    }

    /// `access(2)` with `R_OK | X_OK`: true when this process may list a folder and open
    /// what is in it.
    public static func canReadFolder(_ path: String) -> Bool { access(path, R_OK | X_OK) == 0 }

    /// `access(2)` with `W_OK | X_OK`: nil when this process may add and remove what is in
    /// the folder; else why not (a folder of another user, a read-only file system).
    public static func cannotWriteFolder(_ path: String) -> Errno? {
        access(path, W_OK | X_OK) == 0 ? nil : Errno(rawValue: errno)
    }

    /// `mkdir(2)`; false (not an error) when the name is already taken.
    @discardableResult
    public static func makeDirectory(_ path: String, permissions: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute]) throws(Errno) -> Bool {
        do {
            try Syscall.retrying { mkdir(path, permissions.rawValue) }
            return true
        } catch where error == .fileExists {
            return false
        }
    }

    /// `mkdtemp(3)`: a new private (0700) folder named `prefix` + six random characters.
    public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Syscall.errno }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `rename(2)`: replaces `target` if it exists.
    public static func rename(_ source: String, to target: String) throws(Errno) {
        try Syscall.retrying { Glibc.rename(source, target) }
    }

    /// `link(2)`: a second name; fails with `.fileExists` rather than replace.
    public static func link(_ source: String, to target: String) throws(Errno) {
        try Syscall.retrying { Glibc.link(source, target) }
    }

    /// `unlink(2)`.
    public static func remove(_ path: String) throws(Errno) {
        try Syscall.retrying { unlink(path) }
    }

    /// `unlink(2)` where a missing file is fine; other failures throw.
    public static func removeIfPresent(_ path: String) throws(Errno) {
        do { try remove(path) } catch where error == .noSuchFileOrDirectory {}
    }

    /// `rmdir(2)`.
    public static func removeDirectory(_ path: String) throws(Errno) {
        try Syscall.retrying { rmdir(path) }
    }

    /// `readlink(2)`: the target a symbolic link names.
    public static func readLink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = try Syscall.retrying { readlink(path, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `chmod(2)`.
    public static func setPermissions(_ path: String, _ permissions: UInt32) throws(Errno) {
        try Syscall.retrying { chmod(path, mode_t(permissions)) }
    }

    /// `lchown(2)` of the group only (the owner is left as it is).
    public static func setGroup(_ path: String, _ group: UInt32) throws(Errno) {
        try Syscall.retrying { lchown(path, uid_t.max, gid_t(group)) }
    }

    /// `statvfs(3)`: the space left on the file system that holds `path`.
    public static func space(at path: String) throws(Errno) -> VolumeSpace {
        var s = statvfs()
        try Syscall.retrying { statvfs(path, &s) }
        let unit = Int64(s.f_frsize > 0 ? s.f_frsize : s.f_bsize)
        return VolumeSpace(availableBytes: Int64(s.f_bavail) * unit, totalBytes: Int64(s.f_blocks) * unit,
                           availableInodes: Int64(s.f_favail), totalInodes: Int64(s.f_files), allocationBytes: max(1, unit))
    }
}

extension FileSystem {
    /// One name in a folder and the kind of file it names (symbolic links not followed).
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// nil when the file vanished between the listing and the look at it.
        public var kind: FileStatus.Kind?
    }

    /// The entries of a folder (`opendir`/`readdir`), without `.` and `..`, in the order the
    /// file system gives them. The kind comes from the listing (`d_type`); only file
    /// systems that do not report it cost an `fstatat` per name.
    public static func entries(in folder: String) throws(Errno) -> [Entry] {
        guard let dir = opendir(folder) else { throw Syscall.errno }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var entries: [Entry] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let kind: FileStatus.Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_SOCK): kind = .socket
            case Int32(DT_UNKNOWN):
                var st = stat()
                kind = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? FileStatus(st).kind : nil
            default: kind = .other
            }
            entries.append(Entry(name: name, kind: kind))
        }
        return entries
    }

    /// The names in a folder, without `.` and `..`.
    public static func names(in folder: String) throws(Errno) -> [String] {
        try entries(in: folder).map(\.name)
    }
}

/// A failed call on a path: which path (a parent, when creating folders) and why.
public struct PathError: Error, Sendable {
    public var path: String
    public var errno: Errno
}

extension FileSystem {
    /// Creates `path` and its missing parents (`mkdir -p`, mode 0755); throws with the
    /// first folder that could not be created.
    public static func makeDirectories(_ path: String) throws(PathError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            do { try makeDirectory(built) } catch { throw PathError(path: built, errno: error) }
        }
    }
}
