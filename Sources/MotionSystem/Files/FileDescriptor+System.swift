import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The calls on an open file that swift-system leaves out (fsync, ftruncate, flock,
/// fstat, posix_fadvise) and typed-throws forms of those it has.
extension FileDescriptor {
    /// `fsync(2)`: written data reaches the storage.
    public func sync() throws(Errno) {
        try Syscall.retrying { fsync(rawValue) }
    }

    /// `ftruncate(2)`.
    public func truncate(to size: Int64) throws(Errno) {
        try Syscall.retrying { ftruncate(rawValue, off_t(size)) }
    }

    /// `flock(LOCK_EX | LOCK_NB)`: true when this descriptor now holds the exclusive lock,
    /// false when another open file holds it; other failures (a file system without locks)
    /// throw. The lock lasts until the file is closed or the process dies.
    public func tryLockExclusive() throws(Errno) -> Bool {
        do {
            try Syscall.retrying { flock(rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch where error == .wouldBlock {
            return false
        }
    }

    /// `fstat(2)`.
    public func status() throws(Errno) -> FileStatus {
        try FileStatus(descriptor: rawValue)
    }

    /// `read(2)` into `buffer`: the bytes read, 0 at the end.
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Syscall.retrying { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// `pread(2)` at `offset`: the bytes read, 0 at the end.
    public func readSome(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        try Syscall.retrying { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// `write(2)`: the bytes written (possibly fewer than given).
    public func writeSome(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try Syscall.retrying { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// `pwrite(2)` until every byte is written at `offset`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            done += try Syscall.retrying { Glibc.pwrite(rawValue, rest.baseAddress, rest.count, off_t(offset) + off_t(done)) }
        }
    }

    /// `lseek(2)` to an absolute offset.
    public func rewind(to offset: Int64 = 0) throws(Errno) {
        try Syscall.retrying { Glibc.lseek(rawValue, off_t(offset), SEEK_SET) }
    }

    /// `posix_fadvise(POSIX_FADV_DONTNEED)` over the whole file: its pages may leave the
    /// cache (reading a large file once). Advice only: a refusal is not an error.
    public func adviseDontNeed() {
        _ = posix_fadvise(rawValue, 0, 0, POSIX_FADV_DONTNEED)
    }
}
