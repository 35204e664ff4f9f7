#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A regular file mapped read-only into memory (`mmap(2)`), so a reader parses its bytes
/// where the page cache holds them instead of copying them out with read(2) first.
///
/// * `base[0 ..< size]` are the file's bytes as long as it keeps at least that size; at
///   least `padding` readable bytes follow (zeros, or in the last page what was appended
///   since the file was mapped), so a parser may load a few bytes past the end.
/// * Memory: the pages read stay mapped, and count in the process's resident size, until
///   `release(before:)` lets them go (they stay in the page cache): a reader releases what
///   it is done with, so a 2 GB file does not make a 2 GB process.
/// * A file that shrinks while mapped does not kill the process (`MappedFileGuard`): the
///   pages it lost read as zeros and `changedWhileRead` turns true, so the reader says
///   the file changed instead of reporting what it read.
public final class MappedFile {
    /// The first byte of the file.
    public let base: UnsafePointer<UInt8>
    /// The file's size when it was mapped.
    public let size: Int
    /// Bytes readable after `size` (zeros unless the file grew since it was mapped).
    public static let padding = 64
    private let length: Int
    private let registration: Int
    private var released = 0
    private static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the open file `fd`; nil where it cannot be (an empty file, not a regular file,
    /// a file system without mmap, a 32-bit address space, too many files mapped at once):
    /// read it with read(2) then.
    public init?(_ fd: FileDescriptor) {
        #if arch(arm) || arch(i386)
        return nil   // a large file would take much of a 32-bit address space
        #else
        guard let status = try? fd.status(), status.kind == .regular, status.size > 0 else { return nil }
        let size = Int(status.size), page = Self.pageBytes
        let fileBytes = (size + page - 1) / page * page
        let length = fileBytes + page   // one page of zeros after the file's last page
        // The whole range as zeros first, then the file over all but the last page: the
        // zeros after `size` in the file's last page come from the kernel.
        let reserved = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let reserved, reserved != MAP_FAILED else { return nil }
        guard mmap(reserved, fileBytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd.rawValue, 0) != MAP_FAILED,
              let registration = MappedFileGuard.register(start: Int(bitPattern: reserved),
                                                          end: Int(bitPattern: reserved) + fileBytes) else {
            munmap(reserved, length)
            return nil
        }
        madvise(reserved, fileBytes, MADV_SEQUENTIAL)
        self.base = UnsafePointer(reserved.assumingMemoryBound(to: UInt8.self))
        self.size = size
        self.length = length
        self.registration = registration
        #endif
    }

    deinit {
        MappedFileGuard.unregister(registration)
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }

    /// Whether part of the file was gone when it was read (it shrank while mapped): the
    /// bytes read there were zeros, not the file's.
    public var changedWhileRead: Bool { MappedFileGuard.wasHit(registration) }

    /// Lets the pages wholly before byte `offset` go from this process's memory (they stay
    /// in the page cache); reading them again reads the file again. Offsets only grow.
    /// Pages go `releaseStep` at a time at least: each release makes the kernel flush the
    /// other threads' TLBs (release per 512 KiB block: 2–3 % more wall time for `summary`).
    public func release(before offset: Int) {
        let end = min(offset, size) / Self.pageBytes * Self.pageBytes
        guard end >= released + Self.releaseStep else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
        released = end
    }

    /// The least a `release` lets go (and so about the most a reader holds beyond what it
    /// is parsing).
    public static let releaseStep = 4 << 20
}
