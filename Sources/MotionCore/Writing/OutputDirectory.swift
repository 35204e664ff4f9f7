import MotionSystem
import SystemPackage

/// A failed file-system operation of the writer: what, where, why, and what to do.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Errno?
    /// Bytes that reached the file before a write failed.
    public var bytesWritten: Int = 0
    /// Why, where there is no errno to say it.
    public var reason: String?

    public init(operation: String, path: String, errno: Errno?, bytesWritten: Int = 0, reason: String? = nil) {
        self.operation = operation; self.path = path; self.errno = errno; self.bytesWritten = bytesWritten
        self.reason = reason
    }

    public var description: String {
        var text = "cannot \(operation) \(path)"
        if let e = errno { text += ": \(e)" }
        if let reason { text += ": \(reason)" }
        switch errno {
        case .noSpace?: text += " — the card is full (no space, or no inodes left): free space or use a larger card; rows that could not be written are counted as lost"
        case .permissionDenied?, .notPermitted?: text += " — choose an output folder you may write to (--out) or fix its owner/permissions"
        case .readOnlyFileSystem?: text += " — the file system is read-only (a failing SD card is often remounted read-only): check the card"
        case .ioError?: text += " — the storage reported an I/O error: the card may be failing"
        case .fileTooLarge?: text += " — the file is as large as this file system (or a ulimit -f) allows (FAT32: 4 GiB)"
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
        do {
            let st = try FileSystem.status(path)
            identity = (st.device, st.inode)
        } catch {
            throw OutputError(operation: "use output folder", path: path, errno: error)
        }
    }

    public var missingReason: String? {
        let st: FileStatus
        do { st = try FileSystem.status(path) } catch {
            return "the output folder \(path) is gone (\(error))"
        }
        if st.device != identity.dev || st.inode != identity.ino {
            return "the output folder \(path) was replaced by another folder of that name (removed and created again, or its card unmounted)"
        }
        return nil
    }

    static func makeDirectories(_ path: String) throws(OutputError) {
        do { try FileSystem.makeDirectories(path) } catch {
            throw OutputError(operation: "create folder", path: error.path, errno: error.errno)
        }
        if (try? FileSystem.status(path))?.kind != .directory {
            throw OutputError(operation: "use output folder", path: path, errno: .notDirectory)
        }
    }

    public func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        var suffix = 0
        while true {
            let name = suffix == 0 ? base : "\(base)-\(suffix)"
            let full = path + "/" + name + ext
            // A metadata file of that name without its CSV (left by someone, or by a copy)
            // takes the name too: the recording's metadata would be written over it.
            if ext == ".csv" && FileSystem.exists(path + "/" + name + ".json") {
                suffix += 1
                if suffix > 10_000 { throw OutputError(operation: "find a free name for", path: full, errno: .fileExists) }
                continue
            }
            let fd: FileDescriptor
            do {
                fd = try FileSystem.open(full, .writeOnly,
                                         options: [.create, .exclusiveCreate, .noFollow, .append, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch where error == .fileExists {
                suffix += 1
                if suffix > 10_000 { throw OutputError(operation: "find a free name for", path: full, errno: error) }
                continue
            } catch {
                throw OutputError(operation: "create", path: full, errno: error)
            }
            // Held until close (or process death): tells power-loss recovery the file is
            // live. Without it recovery could cut the file while it is written, so a file
            // that cannot be locked is not written: another process's recovery took the
            // lock first (the name counts as taken), or the folder's file system has no locks.
            let locked: Bool
            do { locked = try fd.tryLockExclusive() } catch {
                try? fd.close()
                try? FileSystem.remove(full)
                throw OutputError(operation: "lock", path: full, errno: error)
            }
            if locked { return (name, DiskFile(fd: fd, path: full)) }
            try? fd.close()
            suffix += 1
        }
    }

    public func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String {
        let source = path + "/" + from
        var suffix = 0
        while true {
            let name = suffix == 0 ? base : "\(base)-\(suffix)"
            let target = path + "/" + name + ext
            if FileSystem.exists(target) || (ext == ".csv" && FileSystem.exists(path + "/" + name + ".json")) {
                suffix += 1
                if suffix > 10_000 { throw OutputError(operation: "find a free name for", path: target, errno: .fileExists) }
                continue
            }
            do { try FileSystem.rename(source, to: target) } catch {
                throw OutputError(operation: "rename \(source) to", path: target, errno: error)
            }
            return name
        }
    }

    public func remove(name: String) throws(OutputError) {
        let full = path + "/" + name
        do { try FileSystem.removeIfPresent(full) } catch {
            throw OutputError(operation: "remove", path: full, errno: error)
        }
    }

    public func replace(name: String, contents: [UInt8]) throws(OutputError) {
        let full = path + "/" + name
        let temp = full + ".tmp"
        // A temporary left by a crash (or anything planted under its name, a symbolic link
        // included) is removed, never followed; the new one is created exclusively.
        do { try FileSystem.removeIfPresent(temp) } catch {
            throw OutputError(operation: "remove the stale", path: temp, errno: error)
        }
        let fd: FileDescriptor
        do {
            fd = try FileSystem.open(temp, .writeOnly,
                                     options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                     permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            let failure = OutputError(operation: "create", path: temp, errno: error)
            if failure.errno == .noSpace, overwriteInPlace(full, contents) { return }
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
            try? FileSystem.remove(temp)      // never leave an empty or partial temporary behind
            if failure.errno == .noSpace, overwriteInPlace(full, contents) { return }
            throw failure
        }
        do { try FileSystem.rename(temp, to: full) } catch {
            try? FileSystem.remove(temp)
            throw OutputError(operation: "rename \(temp) to", path: full, errno: error)
        }
    }
}

extension DiskDirectory {
    /// On a full card a new temporary cannot be created, but the existing metadata file's
    /// blocks can be rewritten: stale counters (no losses) would be worse than a rewrite
    /// that is not atomic (a torn one is rebuilt by recovery). True when it worked.
    func overwriteInPlace(_ full: String, _ contents: [UInt8]) -> Bool {
        guard let fd = try? FileSystem.open(full, .writeOnly, options: [.noFollow, .closeOnExec]) else { return false }
        defer { try? fd.close() }
        guard (try? fd.status())?.kind == .regular else { return false }
        do {
            try contents.withBytes { (raw) throws(Errno) in try fd.writeAll(raw, at: 0) }
            try fd.truncate(to: Int64(contents.count))
            try fd.sync()
            return true
        } catch {
            return false
        }
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
                done += try fd.writeSome(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            } catch {
                throw OutputError(operation: "write", path: path, errno: error, bytesWritten: done)
            }
        }
    }

    func sync() throws(OutputError) {
        do { try fd.sync() } catch { throw OutputError(operation: "fsync", path: path, errno: error) }
    }

    func truncate(to size: Int64) throws(OutputError) {
        do { try fd.truncate(to: size) } catch {
            throw OutputError(operation: "truncate", path: path, errno: error)
        }
    }

    var isDeleted: Bool {
        (try? fd.status())?.linkCount == 0
    }

    func close() throws(OutputError) {
        guard !closed else { return }
        closed = true
        do { try fd.close() } catch { throw OutputError(operation: "close", path: path, errno: error as? Errno) }
    }
}
