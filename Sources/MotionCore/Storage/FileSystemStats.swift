import MotionSystem
import SystemPackage

/// Space on the file system that holds a folder.
public struct FileSystemSpace: Sendable, Equatable {
    /// Bytes an unprivileged writer may still use (`f_bavail`: root's reserve excluded).
    public var availableBytes: Int64
    public var totalBytes: Int64
    /// Inodes (file slots) an unprivileged writer may still use (`f_favail`), and in total;
    /// a total of 0 means the file system does not count them (FAT, btrfs).
    public var availableInodes: Int64
    public var totalInodes: Int64

    public init(availableBytes: Int64, totalBytes: Int64, availableInodes: Int64 = 0, totalInodes: Int64 = 0) {
        self.availableBytes = availableBytes; self.totalBytes = totalBytes
        self.availableInodes = availableInodes; self.totalInodes = totalInodes
    }
}

/// Why the space of a folder could not be read.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Errno?
    public var description: String {
        "cannot read the free space of \(path)" + (errno.map { ": \($0)" } ?? "")
    }

    public init(path: String, errno: Errno?) { self.path = path; self.errno = errno }
}

/// Reads how much space is left where recordings go. `StatvfsFileSystemStats` in
/// production; tests inject fakes that run out of space on command.
public protocol FileSystemStats: Sendable {
    func space(at path: String) throws(StorageError) -> FileSystemSpace
}

/// The real file system, through `statvfs(3)`.
public struct StatvfsFileSystemStats: FileSystemStats {
    public init() {}

    public func space(at path: String) throws(StorageError) -> FileSystemSpace {
        let s: VolumeSpace
        do { s = try FileSystem.space(at: path) } catch { throw StorageError(path: path, errno: error) }
        return FileSystemSpace(availableBytes: s.availableBytes, totalBytes: s.totalBytes,
                               availableInodes: s.availableInodes, totalInodes: s.totalInodes)
    }
}
