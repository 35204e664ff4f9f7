import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe that wakes a thread blocked in `Poll.wait`: `wake()` writes a byte (from
/// any thread), the waiting thread polls `readFD` and `drain()`s it. Both ends are
/// non-blocking and close-on-exec.
public final class WakePipe: @unchecked Sendable {
    // @unchecked: the descriptors are immutable; write and read on a pipe are thread-safe.
    public let readFD: Int32
    private let writeFD: Int32

    public init() throws(Errno) {
        var fds: [Int32] = [0, 0]
        try Syscall.retrying { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        Glibc.close(readFD)
        Glibc.close(writeFD)
    }

    /// Makes the next (or current) wait on `readFD` return. Never blocks: a full pipe
    /// already means "wake".
    public func wake() {
        var b: UInt8 = 1
        _ = Glibc.write(writeFD, &b, 1)
    }

    /// Empties the pipe.
    public func drain() {
        var sink = [UInt8](repeating: 0, count: 64)
        while sink.withUnsafeMutableBytes({ Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }
}
