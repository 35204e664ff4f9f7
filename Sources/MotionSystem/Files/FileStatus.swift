import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a file, in the terms the callers use.
public struct FileStatus: Sendable, Equatable {
    /// The kind of file.
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, socket, other
    }

    public var kind: Kind
    public var device: UInt64
    public var inode: UInt64
    /// For a device file, the device it stands for (`st_rdev`; 0 for other files): a block
    /// device's file system, mounted, has it as its `device`.
    public var specialDevice: UInt64
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    public var owner: UInt32
    public var group: UInt32
    /// Names the file has; 0 once it is deleted while still open.
    public var linkCount: UInt64
    public var size: Int64
    /// Last modification, ns since 1970.
    public var modifiedNanos: Int64

    /// `fstat(2)` of an open descriptor.
    init(descriptor: Int32) throws(Errno) {
        var st = stat()
        try Syscall.retrying { fstat(descriptor, &st) }
        self.init(st)
    }

    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        specialDevice = UInt64(st.st_rdev)
        permissions = UInt32(st.st_mode & 0o7777)
        owner = UInt32(st.st_uid)
        group = UInt32(st.st_gid)
        linkCount = UInt64(st.st_nlink)
        size = Int64(st.st_size)
        modifiedNanos = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }
}

/// Space on the file system that holds a path, as `statvfs(3)` reports it.
public struct VolumeSpace: Sendable, Equatable {
    /// Bytes an unprivileged writer may still use (`f_bavail`: root's reserve excluded).
    public var availableBytes: Int64
    public var totalBytes: Int64
    /// Inodes an unprivileged writer may still use (`f_favail`) and in total (0: not counted).
    public var availableInodes: Int64
    public var totalInodes: Int64
    /// The unit space is allocated in (`f_frsize`: a FAT or exFAT cluster, up to 1 MiB or
    /// more): a file takes its size rounded up to it.
    public var allocationBytes: Int64 = 1
}
