import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

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
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { throw StorageError(path: path, errno: Errno(rawValue: errno)) }
        let unit = Int64(s.f_frsize > 0 ? s.f_frsize : s.f_bsize)
        return FileSystemSpace(availableBytes: Int64(s.f_bavail) * unit, totalBytes: Int64(s.f_blocks) * unit,
                               availableInodes: Int64(s.f_favail), totalInodes: Int64(s.f_files))
    }
}
