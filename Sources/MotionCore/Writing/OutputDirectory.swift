import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A failed file-system operation of the writer: what, where, why, and what to do.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Errno?
    /// Bytes that reached the file before a write failed.
    public var bytesWritten: Int = 0

    public init(operation: String, path: String, errno: Errno?, bytesWritten: Int = 0) {
        self.operation = operation; self.path = path; self.errno = errno; self.bytesWritten = bytesWritten
    }

    public var isNoSpace: Bool { errno == .noSpace }

    public var description: String {
        var text = "cannot \(operation) \(path)"
        if let e = errno { text += ": \(e)" }
        switch errno {
        case .noSpace?: text += " — the card is full (no space, or no inodes left): free space or use a larger card; rows that could not be written are counted as lost"
        case .permissionDenied?, .notPermitted?: text += " — choose an output folder you may write to (--out) or fix its owner/permissions"
        case .readOnlyFileSystem?: text += " — the file system is read-only (a failing SD card is often remounted read-only): check the card"
        case .ioError?: text += " — the storage reported an I/O error: the card may be failing"
        default: break
        }
        return text
    }
}

/// One file being written (the CSV of the current rotation segment).
public protocol OutputFile: AnyObject {
    /// Writes all bytes or throws (with `bytesWritten` set to what did reach the file).
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
    /// Makes written data durable (fsync).
    func sync() throws(OutputError)
    /// Cuts the file back to `size` bytes (to remove a partial row after a failed write).
    func truncate(to size: Int64) throws(OutputError)
    func close() throws(OutputError)
    /// True when the file no longer has a name (deleted, e.g. with its folder, while open).
    var isDeleted: Bool { get }
}

extension OutputFile {
    public var isDeleted: Bool { false }
}

/// Where a recording's files go. `DiskDirectory` in production; tests use MotionTestSupport's
/// `MemoryDirectory`, which stalls and fails on command.
public protocol OutputDirectory: AnyObject {
    var path: String { get }
    /// Creates a new file `base + suffix + ext`, never overwriting: a taken name gets
    /// `-1`, `-2`, ... Returns the base actually used (with its suffix) and the file.
    func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile)
    /// Replaces a small file atomically (write a temporary, fsync, rename): metadata.
    func replace(name: String, contents: [UInt8]) throws(OutputError)
    /// Renames `from` (a full name) to `base + suffix + ext`, never over an existing file
    /// (`-1`, `-2`, ... as `createExclusive`); returns the base used. Open files stay valid.
    func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String
    /// Removes a file (a metadata file left under an old name).
    func remove(name: String) throws(OutputError)
    /// Why the folder is no longer the one the recording started in (removed, or replaced by
    /// another folder of the same name); nil while it is.
    var missingReason: String? { get }
}

extension OutputDirectory {
    public var missingReason: String? { nil }
}

/// A real folder on disk, written with plain syscalls through swift-system.
///
/// Every file it creates is created exclusively (`O_EXCL`) and never through a symbolic link
/// (`O_NOFOLLOW`): a link planted in a folder others can write cannot make it write
/// elsewhere.
public final class DiskDirectory: OutputDirectory {
    public let path: String
    /// Device and inode of the folder when it was opened (to notice it being replaced).
    private let identity: (dev: UInt64, ino: UInt64)

    /// Opens (creating if missing, with parents) the folder at `path`.
    public init(path: String) throws(OutputError) {
        self.path = path
        try Self.makeDirectories(path)
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw OutputError(operation: "use output folder", path: path, errno: Errno(rawValue: Glibc.errno))
        }
        identity = (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    public var missingReason: String? {
        var st = stat()
        if stat(path, &st) != 0 {
            return "the output folder \(path) is gone (\(Errno(rawValue: Glibc.errno)))"
        }
        if UInt64(st.st_dev) != identity.dev || UInt64(st.st_ino) != identity.ino {
            return "the output folder \(path) was replaced by another folder of that name (removed and created again, or its card unmounted)"
        }
        return nil
    }

    static func makeDirectories(_ path: String) throws(OutputError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && Glibc.errno != EEXIST {
                throw OutputError(operation: "create folder", path: built, errno: Errno(rawValue: Glibc.errno))
            }
        }
        var st = stat()
        if stat(path, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
            throw OutputError(operation: "use output folder", path: path, errno: .notDirectory)
        }
    }

    public func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        var suffix = 0
        while true {
            let name = suffix == 0 ? base : "\(base)-\(suffix)"
            let full = path + "/" + name + ext
            do {
                let fd = try FileDescriptor.open(FilePath(full), .writeOnly,
                                                 options: [.create, .exclusiveCreate, .noFollow, .append, .closeOnExec],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
                // Held until close (or process death): tells power-loss recovery the file is live.
                _ = flock(fd.rawValue, LOCK_EX | LOCK_NB)
                return (name, DiskFile(fd: fd, path: full))
            } catch let e as Errno where e == .fileExists {
                suffix += 1
                if suffix > 10_000 { throw OutputError(operation: "find a free name for", path: full, errno: e) }
            } catch {
                throw OutputError(operation: "create", path: full, errno: error as? Errno)
            }
        }
    }

    public func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String {
        let source = path + "/" + from
        var suffix = 0
        while true {
            let name = suffix == 0 ? base : "\(base)-\(suffix)"
            let target = path + "/" + name + ext
            var st = stat()
            if lstat(target, &st) == 0 {
                suffix += 1
                if suffix > 10_000 { throw OutputError(operation: "find a free name for", path: target, errno: .fileExists) }
                continue
            }
            if Glibc.rename(source, target) != 0 {
                throw OutputError(operation: "rename \(source) to", path: target, errno: Errno(rawValue: Glibc.errno))
            }
            return name
        }
    }

    public func remove(name: String) throws(OutputError) {
        let full = path + "/" + name
        if unlink(full) != 0 && Glibc.errno != ENOENT {
            throw OutputError(operation: "remove", path: full, errno: Errno(rawValue: Glibc.errno))
        }
    }

    public func replace(name: String, contents: [UInt8]) throws(OutputError) {
        let full = path + "/" + name
        let temp = full + ".tmp"
        // A temporary left by a crash (or anything planted under its name, a symbolic link
        // included) is removed, never followed; the new one is created exclusively.
        if unlink(temp) != 0 && Glibc.errno != ENOENT {
            throw OutputError(operation: "remove the stale", path: temp, errno: Errno(rawValue: Glibc.errno))
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(temp), .writeOnly,
                                         options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            let failure = OutputError(operation: "create", path: temp, errno: error as? Errno)
            if failure.isNoSpace, overwriteInPlace(full, contents) { return }
            throw failure
        }
        let file = DiskFile(fd: fd, path: temp)
        let failure: OutputError? = contents.withUnsafeBytes { bytes in
            do {
                try file.write(bytes)
                try file.sync()
                try file.close()
                return nil
            } catch {
                return error as? OutputError ?? OutputError(operation: "write", path: temp, errno: nil)
            }
        }
        if let failure {
            try? file.close()
            unlink(temp)      // never leave an empty or partial temporary behind
            if failure.isNoSpace, overwriteInPlace(full, contents) { return }
            throw failure
        }
        if Glibc.rename(temp, full) != 0 {
            let e = Errno(rawValue: Glibc.errno)
            unlink(temp)
            throw OutputError(operation: "rename \(temp) to", path: full, errno: e)
        }
    }
}

extension DiskDirectory {
    /// On a full card a new temporary cannot be created, but the existing metadata file's
    /// blocks can be rewritten: stale counters (no losses) would be worse than a rewrite
    /// that is not atomic (a torn one is rebuilt by recovery). True when it worked.
    func overwriteInPlace(_ full: String, _ contents: [UInt8]) -> Bool {
        let fd = Glibc.open(full, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        let n = contents.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard n == contents.count, ftruncate(fd, off_t(contents.count)) == 0 else { return false }
        return fsync(fd) == 0
    }
}

/// A file on disk: write(2) until done, fsync(2), ftruncate(2), close(2).
final class DiskFile: OutputFile {
    private let fd: FileDescriptor
    private let path: String
    private var closed = false

    init(fd: FileDescriptor, path: String) { self.fd = fd; self.path = path }

    deinit { if !closed { try? fd.close() } }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        var done = 0
        while done < bytes.count {
            do {
                done += try fd.write(UnsafeRawBufferPointer(rebasing: bytes[done...]), retryOnInterrupt: true)
            } catch {
                throw OutputError(operation: "write", path: path, errno: error as? Errno, bytesWritten: done)
            }
        }
    }

    func sync() throws(OutputError) {
        if fsync(fd.rawValue) != 0 { throw OutputError(operation: "fsync", path: path, errno: Errno(rawValue: Glibc.errno)) }
    }

    func truncate(to size: Int64) throws(OutputError) {
        if ftruncate(fd.rawValue, off_t(size)) != 0 {
            throw OutputError(operation: "truncate", path: path, errno: Errno(rawValue: Glibc.errno))
        }
    }

    var isDeleted: Bool {
        var st = stat()
        return fstat(fd.rawValue, &st) == 0 && st.st_nlink == 0
    }

    func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        do { try fd.close() } catch { throw OutputError(operation: "close", path: path, errno: error as? Errno) }
    }
}
