import MotionCore
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An `OutputDirectory` whose CSV files all go to `/dev/null` through write(2): the writer
/// does all its real work (encoding, chunking, system calls) but nothing reaches a disk.
/// Metadata files are discarded. fsync is skipped: /dev/null has nothing to make durable
/// (and Linux refuses fsync on it with EINVAL).
final class NullDirectory: OutputDirectory {
    let path = "/dev/null"
    private(set) var bytesWritten: Int64 = 0

    func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError(operation: "open", path: path, errno: Errno(rawValue: errno)) }
        return (base, NullFile(fd: fd, directory: self))
    }

    func replace(name: String, contents: [UInt8]) throws(OutputError) {}
    /// Nothing is kept, so there is nothing to rename or remove.
    func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String { base }
    func remove(name: String) throws(OutputError) {}

    fileprivate func count(_ n: Int) { bytesWritten += Int64(n) }
}

/// One file of a `NullDirectory`: an open descriptor on /dev/null.
private final class NullFile: OutputFile {
    private var fd: Int32
    private let directory: NullDirectory

    init(fd: Int32, directory: NullDirectory) { self.fd = fd; self.directory = directory }
    deinit { if fd >= 0 { Glibc.close(fd) } }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(operation: "write", path: "/dev/null", errno: Errno(rawValue: errno), bytesWritten: done)
            }
            done += n
        }
        directory.count(done)
    }

    func sync() throws(OutputError) {}
    func truncate(to size: Int64) throws(OutputError) {}

    func close() throws(OutputError) {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
