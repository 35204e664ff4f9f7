import MotionCore
import MotionSystem
import SystemPackage

/// An `OutputDirectory` whose CSV files all go to `/dev/null` through write(2): the writer
/// does all its real work (encoding, chunking, system calls) but nothing reaches a disk.
/// Metadata files are discarded. fsync is skipped: /dev/null has nothing to make durable
/// (and Linux refuses fsync on it with EINVAL).
final class NullDirectory: OutputDirectory {
    let path = "/dev/null"
    private(set) var bytesWritten: Int64 = 0

    func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        do {
            return (base, NullFile(fd: try FileSystem.open("/dev/null", .writeOnly, options: [.closeOnExec]), directory: self))
        } catch {
            throw OutputError(operation: "open", path: path, errno: error)
        }
    }

    func replace(name: String, contents: [UInt8]) throws(OutputError) {}
    /// Nothing is kept, so there is nothing to rename or remove.
    func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String { base }
    func remove(name: String) throws(OutputError) {}

    fileprivate func count(_ n: Int) { bytesWritten += Int64(n) }
}

/// One file of a `NullDirectory`: an open descriptor on /dev/null.
private final class NullFile: OutputFile {
    private var fd: FileDescriptor?
    private let directory: NullDirectory

    init(fd: FileDescriptor, directory: NullDirectory) { self.fd = fd; self.directory = directory }
    deinit { try? fd?.close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard let fd, bytes.baseAddress != nil else { return }
        var done = 0
        while done < bytes.count {
            do { done += try fd.writeSome(UnsafeRawBufferPointer(rebasing: bytes[done...])) } catch {
                throw OutputError(operation: "write", path: "/dev/null", errno: error, bytesWritten: done)
            }
        }
        directory.count(done)
    }

    func sync() throws(OutputError) {}
    func truncate(to size: Int64) throws(OutputError) {}

    func close() throws(OutputError) {
        try? fd?.close()
        fd = nil
    }
}
