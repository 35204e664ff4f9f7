import MotionSystem
import SystemPackage

/// The offload's file operations (through MotionSystem), each failure turned into an
/// `OffloadError` that says what failed and where.
enum SystemCalls {
    static func openDirectory(_ path: String) throws(OffloadError) -> Directory {
        do { return try Directory(path: path) } catch { throw OffloadError("open the folder", path: path, errno: error) }
    }

    /// Opens a file that must not be a symbolic link.
    static func open(_ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
                     permissions: FilePermissions? = nil, operation: String) throws(OffloadError) -> FileDescriptor {
        do {
            return try FileSystem.open(path, mode, options: options.union([.noFollow, .closeOnExec]), permissions: permissions)
        } catch {
            throw OffloadError(operation, path: path, errno: error)
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    static func read(_ fd: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer, path: String) throws(OffloadError) -> Int {
        do { return try fd.readSome(into: buffer) } catch { throw OffloadError("read", path: path, errno: error) }
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, path: String) throws(OffloadError) {
        do { try fd.writeAll(bytes) } catch { throw OffloadError("write", path: path, errno: error) }
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8], path: String) throws(OffloadError) {
        do { try fd.writeAll(bytes) } catch { throw OffloadError("write", path: path, errno: error) }
    }

    static func fsync(_ fd: FileDescriptor, path: String) throws(OffloadError) {
        do { try fd.sync() } catch { throw OffloadError("flush to the device", path: path, errno: error) }
    }

    /// Flushes a folder's entries.
    static func fsync(_ directory: Directory) throws(OffloadError) {
        do { try directory.sync() } catch { throw OffloadError("flush to the device", path: directory.path, errno: error) }
    }

    /// Removes a file; a missing one is fine.
    static func delete(_ path: String) throws(OffloadError) {
        do { try FileSystem.removeIfPresent(path) } catch { throw OffloadError("delete", path: path, errno: error) }
    }

    /// Renames within one folder, never replacing an existing name.
    static func renameNoReplace(directory: Directory, from: String, to: String) throws(OffloadError) {
        let target = directory.path + "/" + to
        let renamed: Bool
        do { renamed = try directory.renameNoReplace(from, to: to) } catch {
            throw OffloadError("rename \(from) to", path: target, errno: error)
        }
        if !renamed { throw OffloadError("rename \(from) to", path: target, reason: "a file of that name exists already") }
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path`.
    static func availableBytes(_ path: String) -> Int64? {
        (try? FileSystem.space(at: path))?.availableBytes
    }

    /// The unit the file system holding `path` allocates space in (1 when unknown).
    static func allocationBytes(_ path: String) -> Int64 {
        (try? FileSystem.space(at: path))?.allocationBytes ?? 1
    }

    /// True when a running recording holds the writer's exclusive lock on `path`.
    static func isLockedByWriter(_ path: String) -> Bool {
        FileSystem.isLockedExclusively(path)
    }
}

/// The logger's name on a stick or a remote: its hostname (the part before the first dot),
/// so that several loggers can share one stick or bucket.
public enum LoggerName {
    public static var current: String {
        let full = FileSystem.hostName() ?? "motionlog"
        return full.split(separator: ".").first.map(String.init) ?? full
    }
}
