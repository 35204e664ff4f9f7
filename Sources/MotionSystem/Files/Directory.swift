import CFileSystem
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An open folder: names inside it are created, opened, removed and renamed relative to
/// it (`openat`, `unlinkat`, `renameat2`), so a folder renamed or replaced meanwhile cannot
/// redirect them, and the folder itself can be flushed (`fsync`) after a rename.
public final class Directory {
    public let path: String
    public let descriptor: FileDescriptor

    /// Opens the folder at `path` read-only.
    public init(path: String) throws(Errno) {
        self.path = path
        descriptor = try FileSystem.openDirectory(path)
    }

    deinit { try? descriptor.close() }

    /// Flushes the folder's entries (after creating, renaming or removing names in it).
    public func sync() throws(Errno) { try descriptor.sync() }

    /// `openat(2)` of `name` in this folder.
    public func open(_ name: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
                     permissions: FilePermissions? = nil) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue
        let fd = try Syscall.retrying {
            if let permissions { return openat(descriptor.rawValue, name, flags, permissions.rawValue) }
            return openat(descriptor.rawValue, name, flags)
        }
        return FileDescriptor(rawValue: fd)
    }

    /// `unlinkat(2)` of `name` (the entry itself, never a symbolic link's target).
    public func remove(_ name: String) throws(Errno) {
        try Syscall.retrying { unlinkat(descriptor.rawValue, name, 0) }
    }

    /// `unlinkat(2)` of `name`; a missing name is fine, also where the file system refuses
    /// the unlink before looking (a read-only one says EROFS for a name that is not there).
    public func removeIfPresent(_ name: String) throws(Errno) {
        do { try remove(name) } catch where error == .noSuchFileOrDirectory {} catch {
            var st = stat()
            if fstatat(descriptor.rawValue, name, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT { return }
            throw error
        }
    }

    /// Renames `from` to `to` within this folder, never replacing: false when `to` exists.
    /// `renameat2(RENAME_NOREPLACE)`; where the file system cannot do it, a check then
    /// `renameat` (the caller must be the folder's only writer).
    public func renameNoReplace(_ from: String, to: String) throws(Errno) -> Bool {
        do {
            try Syscall.retrying { motionlog_rename_noreplace(descriptor.rawValue, from, descriptor.rawValue, to) }
            return true
        } catch where error == .fileExists {
            return false
        } catch where error == .invalidArgument || error == .noFunction {
            var st = stat()
            if fstatat(descriptor.rawValue, to, &st, AT_SYMLINK_NOFOLLOW) == 0 { return false }
            try Syscall.retrying { renameat(descriptor.rawValue, from, descriptor.rawValue, to) }
            return true
        }
    }
}

extension FileSystem {
    /// The file system type's magic number (`statfs` `f_type`, e.g. 0x4d44 for FAT).
    public static func typeMagic(at path: String) -> Int64? {
        let magic = motionlog_filesystem_magic(path)
        return magic < 0 ? nil : Int64(magic)
    }

    /// True when another open file holds an exclusive `flock` on `path` (a running
    /// recording's writer); false when it is free, missing or a symbolic link.
    public static func isLockedExclusively(_ path: String) -> Bool {
        guard let fd = try? open(path, .readOnly, options: [.closeOnExec, .noFollow]) else { return false }
        defer { try? fd.close() }
        do {
            try Syscall.retrying { flock(fd.rawValue, LOCK_SH | LOCK_NB) }
            _ = flock(fd.rawValue, LOCK_UN)
            return false
        } catch {
            return error == .wouldBlock
        }
    }

    /// `sync(2)`: every file system's dirty data to its device.
    public static func syncAll() { sync() }

    /// The machine's host name (`gethostname`); nil when unknown.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}

extension FileDescriptor {
    /// `write(2)` until every byte is written; a device that takes no bytes is `.ioError`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = try writeSome(UnsafeRawBufferPointer(rebasing: bytes[done...]))
            if n == 0 { throw Errno.ioError }
            done += n
        }
    }

    /// `write(2)` of every byte of an array.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withBytes { (raw) throws(Errno) in try writeAll(raw) }
    }
}
